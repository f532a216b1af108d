// What every browser test shares: a real `bitarcade serve` on a free port, Debian's Chromium
// driven by playwright-core, the CLI to check answers against, and the page's test hooks.
import { before, after } from 'node:test';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../../..');
const bin = process.env.BITARCADE_BIN || join(repo, 'target/debug/bitarcade');
export const shots = process.env.SCREENSHOTS || join(repo, 'docs/screenshots');
export const tmp = mkdtempSync(join(tmpdir(), 'arcade-e2e-'));

export const env = { url: null, browser: null };
let server;

export function cli(...args) {
  return execFileSync(bin, args, { encoding: 'utf8' });
}

/** POSTs JSON to the server from the test itself (not through the page). */
export async function api(path, body) {
  const r = await fetch(env.url + path.replace(/^\//, ''), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error);
  return data;
}

before(async () => {
  server = spawn(bin, ['serve', '--port', '0', '--workers', '2'], { stdio: ['ignore', 'pipe', 'inherit'] });
  env.url = await new Promise((ok, fail) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/\S+\//);
      if (m) ok(m[0]);
    });
    server.on('exit', (c) => fail(new Error(`serve exited with ${c}`)));
    // Unref'd: a pending timer keeps node alive, and this file's process would outlive its
    // tests by up to the 20 s (about 12 s a file, 100 s of the suite, before session 40).
    setTimeout(() => fail(new Error('serve did not print its URL')), 20000).unref();
  });
  env.browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await env.browser?.close();
  server?.kill('SIGINT');
});

export async function open(hash, viewport = { width: 1100, height: 760 }) {
  const page = await env.browser.newPage({ viewport });
  page.on('pageerror', (e) => { throw e; });
  const t0 = Date.now();
  await page.goto(env.url + hash);
  await page.waitForSelector('[data-testid=board][data-settled=true][data-board]');
  return { page, ready: Date.now() - t0 };
}

export const board = (page) => page.getAttribute('[data-testid=board]', 'data-board');
export const moves = async (page) => Number(await page.getAttribute('[data-testid=board]', 'data-moves'));

export async function waitMoves(page, n, timeout = 5000) {
  try {
    await page.waitForFunction((n) => {
      const b = document.querySelector('[data-testid=board]');
      return Number(b.dataset.moves) === n && b.dataset.settled === 'true';
    }, n, { timeout });
  } catch (e) {
    const seen = await page.evaluate(() => JSON.stringify(document.querySelector('[data-testid=board]').dataset));
    throw new Error(`waiting for move ${n}: ${seen}`);
  }
}

/** Clicks "Export record" and writes what the page exported to a file in `tmp`. */
export async function exported(page, name) {
  await page.evaluate(() => { delete document.querySelector('[data-testid=board]').dataset.exported; });
  await page.click('[data-testid=export]');
  await page.waitForSelector('[data-testid=board][data-exported]');
  const text = await page.getAttribute('[data-testid=board]', 'data-exported');
  const file = join(tmp, name);
  writeFileSync(file, text);
  return file;
}

/** Drags the timeline to `k` (the value the browser sets, then its input event). */
export function drag(page, k) {
  return page.$eval('[data-testid=timeline]', (s, k) => {
    s.value = String(k);
    s.dispatchEvent(new Event('input', { bubbles: true }));
  }, k);
}

/** Waits for the auto run's end message. */
export function autoDone(page, pattern, timeout = 240000) {
  return page.waitForFunction((p) => new RegExp(p).test(document.querySelector('[data-testid=auto-state]').textContent),
    pattern.source, { timeout });
}

/** Opens the page's share link in a fresh page and checks that it shows the same board. */
export async function sameAtLink(page) {
  const link = await page.getAttribute('[data-testid=share]', 'href');
  const again = await env.browser.newPage();
  await again.goto(link);
  await again.waitForSelector('[data-testid=board][data-settled=true][data-board]');
  const [got, want] = [await board(again), await board(page)];
  await again.close();
  if (got !== want) throw new Error(`the share link ${link} shows\n${got}\nnot\n${want}`);
}
