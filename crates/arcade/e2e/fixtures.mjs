// Writes the pixel reader's screenshot fixtures (crates/samegame/tests/fixtures): the web
// arcade's SameGame page in headless Chromium at device scale factors 1 and 2, at the start of
// a game and after some clicks, each PNG beside the board the page shows (its text form, read
// from the page's data-board, which the engine answered). Run it again after the page's look
// changes:  CHROMIUM=/usr/bin/chromium node fixtures.mjs
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const out = join(repo, 'crates/samegame/tests/fixtures');
const bin = process.env.BITARCADE_BIN || join(repo, 'target/debug/bitarcade');

const server = spawn(bin, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((ok, fail) => {
  let text = '';
  server.stdout.on('data', (d) => {
    text += d;
    const m = text.match(/http:\/\/\S+\//);
    if (m) ok(m[0]);
  });
  setTimeout(() => fail(new Error('serve did not print its URL')), 20000).unref();
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const settled = '[data-testid=board][data-settled=true][data-board]';
try {
  for (const [name, hash, scale, clicks] of [
    ['arcade-15x15x4', '#/samegame?w=15&h=15&c=4&seed=8', 1, 0],
    ['arcade-20x10x5-dpr2', '#/samegame?w=20&h=10&c=5&seed=2', 2, 0],
    ['arcade-15x15x4-played', '#/samegame?w=15&h=15&c=4&seed=8', 1, 12],
  ]) {
    const page = await browser.newPage({ viewport: { width: 1000, height: 720 }, deviceScaleFactor: scale });
    await page.goto(url + hash);
    await page.waitForSelector(settled);
    for (let k = 0; k < clicks; k++) {
      // A click on the first cell (reading order) that has a same-coloured neighbour, as a
      // hand would click it.
      const moves = Number(await page.getAttribute('[data-testid=board]', 'data-moves'));
      const rows = (await page.getAttribute('[data-testid=board]', 'data-board')).trim().split('\n');
      const at = (r, c) => (rows[r] ?? '')[c];
      let target = null;
      for (let r = 0; r < rows.length && !target; r++) {
        for (let c = 0; c < rows[r].length && !target; c++) {
          const v = at(r, c);
          if (v !== '.' && [at(r - 1, c), at(r + 1, c), at(r, c - 1), at(r, c + 1)].includes(v)) target = [c, rows.length - 1 - r];
        }
      }
      if (!target) break;
      await page.click(`[data-testid=board] [data-x="${target[0]}"][data-y="${target[1]}"]`);
      await page.waitForFunction((n) => {
        const b = document.querySelector('[data-testid=board]');
        return Number(b.dataset.moves) === n + 1 && b.dataset.settled === 'true';
      }, moves);
    }
    await page.mouse.move(1, 1); // no hover highlight
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(out, `${name}.png`) });
    const board = await page.getAttribute('[data-testid=board]', 'data-board');
    writeFileSync(join(out, `${name}.txt`), board.endsWith('\n') ? board : board + '\n');
    await page.close();
    console.log(`wrote ${name}.png and ${name}.txt`);
  }
} finally {
  await browser.close();
  server.kill('SIGINT');
}
