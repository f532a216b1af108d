// The SameGame browser bot (`bitarcade samegame bot`) on two pages it knows nothing about:
// the web arcade's own page, and a canvas page unlike it (fixtures/canvas-samegame.html:
// gradient tiles, gaps, hover highlights, off-centre on stripes, a device scale of 2). The bot
// runs in its own Chromium; the test checks the board it read against the page's, that every
// board is cleared with the engine's score, that its records replay, and that the page itself,
// given the same clicks, shows that score.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { env, cli, open, repo, tmp } from '../lib.mjs';

const bin = process.env.BITARCADE_BIN || join(repo, 'target/debug/bitarcade');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';

function bot(...args) {
  const out = execFileSync(bin, ['samegame', 'bot', '--chromium', chromium, '--json', ...args], { encoding: 'utf8', timeout: 120000 });
  return JSON.parse(out);
}

/** A board's text with its colours renamed in reading order (the bot numbers them as it meets them). */
const canonical = (text) => {
  const names = new Map();
  return text.trim().split('\n').map((row) => [...row].map((ch) => {
    if (ch === '.') return '.';
    if (!names.has(ch)) names.set(ch, String(names.size));
    return names.get(ch);
  }).join('')).join('\n');
};

test('samegame bot: clears boards of the web arcade page, every click checked, records that replay', async () => {
  const hash = '#/samegame?w=10&h=10&c=3&seed=6';
  const out = bot('--url', env.url + hash, '--record', join(tmp, 'bot-arcade'));
  const [b] = out.boards;
  const { page } = await open(hash);
  const truth = await page.getAttribute('[data-testid=board]', 'data-board');
  assert.equal(canonical(b.board), canonical(truth));
  assert.ok(b.cleared, 'the board is cleared');
  assert.equal(b.mismatches, 0);
  assert.equal(b.score, b.predicted);
  assert.match(cli('samegame', 'replay', b.record), /cleared/);
  // The page, clicked at the same cells, shows the engine's score.
  for (const [x, y] of b.moves) await page.click(`[data-testid=board] .c[data-x="${x}"][data-y="${y}"]`);
  await page.waitForFunction((s) => document.querySelector('[data-testid=score]')?.textContent.replace(/\D/g, '') === String(s), b.score);
  await page.close();
});

test('samegame bot: a canvas page unlike the arcade, at scale 1 and 2, several boards by its New game button', async () => {
  const file = pathToFileURL(resolve(repo, 'crates/arcade/e2e/fixtures/canvas-samegame.html')).href;
  for (const [query, scale, boards] of [['?seed=3&w=12&h=8&c=3', 1, 3], ['?seed=9&w=15&h=10&c=4&tile=22&gap=2', 2, 1]]) {
    const out = bot('--url', file + query, '--viewport', `1000x720x${scale}`, '--boards', String(boards), '--next-click', '180,340',
      '--record', join(tmp, `bot-canvas-${scale}`));
    assert.equal(out.boards.length, boards);
    const page = await env.browser.newPage({ viewport: { width: 1000, height: 720 }, deviceScaleFactor: scale });
    await page.goto(file + query);
    for (const [k, b] of out.boards.entries()) {
      if (k > 0) await page.click('#new');
      assert.equal(canonical(b.board), canonical(await page.getAttribute('body', 'data-board')), `board ${k + 1} as read`);
      assert.equal(b.mismatches, 0);
      assert.equal(b.score, b.predicted);
      assert.match(cli('samegame', 'replay', b.record), /ok/);
      for (const [x, y] of b.moves) assert.ok(await page.evaluate(([x, y]) => window.clickCell(x, y), [x, y]));
      assert.equal(Number(await page.getAttribute('body', 'data-score')), b.score, `board ${k + 1}: the page's score`);
    }
    await page.close();
  }
});

test('samegame bot: no board, no page, no browser: one line and an exit code, never a hang', async () => {
  const run = (...args) => {
    try {
      execFileSync(bin, ['samegame', 'bot', ...args], { encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'] });
      return { code: 0, err: '' };
    } catch (e) {
      return { code: e.status, err: e.stderr };
    }
  };
  let r = run('--url', 'data:text/html,<h1>No board here</h1><p>Only words.</p>', '--chromium', chromium);
  assert.equal(r.code, 1);
  assert.match(r.err, /^bitarcade: error: no board found: .*screenshot: /);
  assert.equal(r.err.trim().split('\n').length, 1);
  r = run('--url', 'http://127.0.0.1:9/', '--chromium', chromium);
  assert.ok(r.code === 1 || r.code === 2, `exit ${r.code}`);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  r = run('--url', env.url, '--chromium', '/no/such/chromium');
  assert.equal(r.code, 2);
  assert.match(r.err, /not installed/);
  r = run('--url', env.url, '--viewport', '10x10');
  assert.equal(r.code, 2);
});

test('samegame bot: --calibrate reads without clicking and draws the grid; --cdp plays in a Chromium already running', async () => {
  const hash = '#/samegame?w=15&h=15&c=4&seed=8';
  const png = join(tmp, 'calibrate.png');
  const c = bot('--url', env.url + hash, '--calibrate', png);
  assert.deepEqual(c.size, [15, 15]);
  assert.equal(c.palette.length, 4);
  assert.ok(existsSync(png));
  const { page } = await open(hash);
  assert.equal(canonical(c.board), canonical(await page.getAttribute('[data-testid=board]', 'data-board')));
  await page.close();
  // A browser the bot did not start: it attaches over DevTools and plays in a new page.
  const profile = mkdtempSync(join(tmpdir(), 'samebot-cdp-'));
  const browser = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--remote-debugging-port=0',
    `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const ws = await new Promise((ok, fail) => {
      let err = '';
      browser.stderr.on('data', (d) => { err += d; const m = err.match(/ws:\/\/\S+/); if (m) ok(m[0]); });
      setTimeout(() => fail(new Error('chromium did not print its DevTools URL')), 20000).unref();
    });
    const out = bot('--url', env.url + '#/samegame?w=10&h=10&c=3&seed=12', '--cdp', ws);
    assert.ok(out.boards[0].cleared);
    assert.equal(out.boards[0].mismatches, 0);
  } finally {
    browser.kill();
  }
});

test('samegame bot: a board that changes under it is read again and played on from the page; N starts the next board', async () => {
  const file = pathToFileURL(resolve(repo, 'crates/arcade/e2e/fixtures/canvas-samegame.html')).href;
  const query = '?seed=4&w=12&h=8&c=3&chaos=3';
  const out = bot('--url', file + query);
  const [b] = out.boards;
  assert.ok(b.mismatches >= 1 && b.segments >= 2, JSON.stringify({ m: b.mismatches, s: b.segments }));
  // The same clicks on the page, with the same change under them, end where the bot says.
  const page = await env.browser.newPage({ viewport: { width: 1000, height: 720 } });
  await page.goto(file + query);
  for (const [x, y] of b.moves) assert.ok(await page.evaluate(([x, y]) => window.clickCell(x, y), [x, y]));
  const left = (await page.getAttribute('body', 'data-board')).replace(/[.\n]/g, '').length;
  assert.equal(left === 0, b.cleared);
  await page.close();
  const two = bot('--url', file + '?seed=20&w=10&h=6&c=3', '--boards', '2', '--next-key', 'n');
  assert.equal(two.boards.length, 2);
  assert.notEqual(two.boards[0].board, two.boards[1].board);
});
