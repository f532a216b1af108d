// The page figures of issue 47, measured (not a test): each page's time to interactive (from
// `goto` to the first board drawn, median of 5 loads) and the hand move round trip (from the
// key or click to the new board drawn, as the page itself times it: `data-round-trip`), over
// many moves, with p50, p99 and the largest. Run it against a release build on a quiet machine:
//
//   cargo build --release -p bitarcade
//   BITARCADE_BIN=target/release/bitarcade CHROMIUM=/usr/bin/chromium node crates/arcade/e2e/bench.mjs
//
// MOVES sets the moves per game (default 200).
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';

const bin = process.env.BITARCADE_BIN || 'target/release/bitarcade';
const N = Number(process.env.MOVES || 200);

const server = spawn(bin, ['serve', '--port', '0', '--workers', '2'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((ok, fail) => {
  let out = '';
  server.stdout.on('data', (d) => { out += d; const m = out.match(/http:\/\/\S+\//); if (m) ok(m[0]); });
  setTimeout(() => fail(new Error('serve did not print its URL')), 20000).unref();
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(p / 100 * s.length) - 1)]; };
const settled = (page, n) => page.waitForFunction((n) => { const b = document.querySelector('[data-testid=board]'); return Number(b.dataset.moves) === n && b.dataset.settled === 'true'; }, n);
const trip = async (page) => Number(await page.getAttribute('[data-testid=board]', 'data-round-trip'));

async function open(hash) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  const t0 = Date.now();
  await page.goto(url + hash);
  // The home page is interactive once its cards are there; a game page once its board is drawn.
  await page.waitForSelector(hash === '#/' ? '[data-testid=home]' : '[data-testid=board][data-settled=true][data-board]');
  return { page, ms: Date.now() - t0 };
}
process.on('exit', () => server.kill('SIGINT'));

const rows = [];
for (const game of ['', 'samegame', 'tetris', 'drop7', '2048', 'snake']) {
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const { page, ms } = await open(`#/${game}`);
    loads.push(ms);
    await page.close();
  }
  rows.push([`interactive: ${game || 'home'}`, `median ${pct(loads, 50)} ms (${loads.join(', ')})`]);
}

// 2048: arrow keys, each a legal move, new games as they end.
{
  const KEYS = { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' };
  const times = [];
  let { page } = await open('#/2048?seed=1');
  let k = 0;
  let seed = 1;
  while (times.length < N) {
    const legal = await page.getAttribute('[data-testid=board]', 'data-legal');
    if (!legal) { await page.close(); seed += 1; k = 0; ({ page } = await open(`#/2048?seed=${seed}`)); continue; }
    await page.keyboard.press(KEYS[legal[times.length % legal.length]]);
    k += 1;
    await settled(page, k);
    times.push(await trip(page));
  }
  await page.close();
  rows.push([`2048 hand move, ${N} moves`, `p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`]);
}

// Drop7: digit keys, a legal column each.
{
  const times = [];
  let seed = 1;
  while (times.length < N) {
    const { page } = await open(`#/drop7?mode=normal&seed=${seed}`);
    for (let k = 1; times.length < N; k++) {
      const legal = await page.getAttribute('[data-testid=board]', 'data-legal');
      if (!legal) break;
      await page.keyboard.press(legal[times.length % legal.length]);
      await settled(page, k);
      times.push(await trip(page));
    }
    await page.close();
    seed += 1;
  }
  rows.push([`Drop7 hand drop, ${N} drops`, `p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`]);
}

// Snake: arrow keys along safe moves.
{
  const KEYS = { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' };
  const times = [];
  let seed = 1;
  while (times.length < N) {
    const { page } = await open(`#/snake?size=10x10&seed=${seed}`);
    for (let k = 1; times.length < N; k++) {
      const legal = await page.getAttribute('[data-testid=board]', 'data-legal');
      if (!legal) break;
      await page.keyboard.press(KEYS[legal[0]]);
      await settled(page, k);
      times.push(await trip(page));
    }
    await page.close();
    seed += 1;
  }
  rows.push([`Snake hand move, ${N} moves`, `p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`]);
}

// The same moves with key events dispatched by the page itself: no DevTools round trip on the
// input path (Playwright's key presses go through the browser process and wait for its ack).
for (const [game, hash, keys] of [['2048', '#/2048?seed=1', { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' }], ['Drop7', '#/drop7?mode=normal&seed=1', null]]) {
  const { page } = await open(hash);
  const times = await page.evaluate(async ([n, keys]) => {
    const board = document.querySelector('[data-testid=board]');
    const t = [];
    for (let k = 1; k <= n; k++) {
      await new Promise((r) => setTimeout(r, 40));
      const legal = board.dataset.legal;
      if (!legal) break;
      const m = legal[k % legal.length];
      document.dispatchEvent(new KeyboardEvent('keydown', { key: keys ? keys[m] : m, bubbles: true }));
      await new Promise((ok) => { const check = () => (Number(board.dataset.moves) === k && board.dataset.settled === 'true' ? ok() : setTimeout(check, 1)); check(); });
      t.push(Number(board.dataset.roundTrip));
    }
    return t;
  }, [N, keys]);
  await page.close();
  rows.push([`${game} hand move, ${times.length} page-dispatched key events`, `p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`]);
}

for (const [what, fig] of rows) console.log(`| ${what} | ${fig} |`);
await browser.close();
server.kill('SIGINT');
