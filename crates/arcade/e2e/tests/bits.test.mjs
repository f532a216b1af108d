// The "bits" view of every game: B (or the Bits button) shows the position as the engine holds
// it, read off the words the server sends; each view is checked against the board on screen
// (the page's data-board text), follows the timeline, rides in the URL, and B hides it again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { open, board, waitMoves, shots } from '../lib.mjs';

/** Opens the view with the key and waits for the words of move `k`. */
async function bitsAt(page, k) {
  await page.waitForFunction((k) => {
    const b = document.querySelector('[data-testid=bits]');
    return b && !b.hidden && b.dataset.settled === 'true' && Number(b.dataset.k) === k;
  }, k, { timeout: 10000 });
}

const big = (s) => BigInt(s);

test('bits: 2048 shows the board word, follows undo, rides in the URL, and B hides it', async () => {
  const { page } = await open('#/2048?seed=5&moves=LURDLURDLL');
  await page.keyboard.press('b');
  await bitsAt(page, 10);
  await page.waitForFunction(() => location.href.includes('bits=1'));
  for (const k of [10, 9]) {
    const word = big((await page.textContent('[data-testid=bits-word]')).replace(/\s/g, ''));
    const tiles = (await board(page)).split(/[/\s]+/).map((t) => (t === '.' ? 0 : Number(t)));
    assert.equal(tiles.length, 16);
    tiles.forEach((t, i) => {
      const rank = Number((word >> BigInt(4 * i)) & 15n);
      assert.equal(rank ? 2 ** rank : 0, t, `move ${k}, cell ${i}`);
    });
    if (k === 10) {
      await page.keyboard.press('z');
      await waitMoves(page, 9);
      await bitsAt(page, 9);
    }
  }
  await page.screenshot({ path: join(shots, 'bits-2048.png'), fullPage: true });
  // The link opens the view; B closes it and the link forgets it.
  const { page: again } = await open(page.url().replace(/^.*?#/, '#'));
  await bitsAt(again, 9);
  await again.keyboard.press('B');
  await again.waitForSelector('[data-testid=bits]', { state: 'hidden' });
  // The address follows a frame later.
  await again.waitForFunction(() => !location.href.includes('bits=1'));
  assert.equal(await again.getAttribute('[data-testid=bits-toggle]', 'aria-pressed'), 'false');
  await again.close();
  await page.close();
});

test('bits: Drop7 shows the seven column words, nibble by nibble the board on screen', async () => {
  const { page } = await open('#/drop7?seed=3&moves=1234567');
  await page.click('[data-testid=bits-toggle]');
  await bitsAt(page, 7);
  const rows = (await board(page)).split(' ')[0].split('/').reverse(); // bottom first
  const code = { '.': 0, '#': 8, x: 9 };
  for (let c = 0; c < 7; c++) {
    const w = big(await page.textContent(`[data-testid=bits-col-${c + 1}]`));
    for (let r = 0; r < 7; r++) {
      const ch = rows[r][c];
      assert.equal(Number((w >> BigInt(4 * r)) & 15n), code[ch] ?? Number(ch), `column ${c + 1}, row ${r}`);
    }
  }
  await page.screenshot({ path: join(shots, 'bits-drop7.png'), fullPage: true });
  await page.close();
});

test('bits: SameGame shows the bitplanes and each colour\'s tiles, as the board shows them', async () => {
  const { page } = await open('#/samegame?w=10&h=8&c=4&seed=2');
  await page.keyboard.press('b');
  await bitsAt(page, 0);
  const text = (await board(page)).split('\n');
  // A grid's aria-label spells its bits, rows top first.
  const label = async (title) => (await page.getAttribute(`[aria-label^="${title}:"]`, 'aria-label')).split(': ')[1].split('/');
  const occ = await label('occ');
  assert.deepEqual(occ, text.map((r) => [...r].map((c) => (c === '.' ? '0' : '1')).join('')));
  for (const c of [0, 1, 2, 3]) {
    const rows = await label(`colour ${c}`);
    assert.deepEqual(rows, text.map((r) => [...r].map((x) => (x === String(c) ? '1' : '0')).join('')), `colour ${c}`);
  }
  // After a click the words follow the board (a removed group, gravity, closed columns).
  const legal = (await page.getAttribute('[data-testid=board]', 'data-legal')).split(' ')[0];
  const [x, y] = legal.split('.').map(Number);
  const h = text.length;
  await page.click(`[data-testid=board] > :nth-child(${(h - 1 - y) * text[0].length + x + 1})`);
  await waitMoves(page, 1);
  await bitsAt(page, 1);
  const after = (await board(page)).split('\n');
  assert.deepEqual(await label('occ'), after.map((r) => [...r].map((c) => (c === '.' ? '0' : '1')).join('')));
  await page.screenshot({ path: join(shots, 'bits-samegame.png'), fullPage: true });
  await page.close();
});

test('bits: Snake shows the cells BFS and A* each reach for the same route', async () => {
  const { page } = await open('#/snake?size=10x10&seed=7&moves=RR');
  await page.keyboard.press('b');
  await bitsAt(page, 2);
  const bfs = Number(await page.textContent('[data-testid=bits-bfs-count]'));
  const astar = Number(await page.textContent('[data-testid=bits-astar-count]'));
  assert.ok(astar >= 1 && astar < bfs, `A* ${astar}, BFS ${bfs}`);
  // Both routes end on the fruit and are equally long (both shortest).
  const routes = await page.$$eval('.searchfig figcaption', (els) => els.map((e) => e.textContent.match(/route (\d+) moves/)[1]));
  assert.equal(routes[0], routes[1]);
  const text = (await board(page)).replace(/\n/g, '');
  const [hx, hy, fx, fy] = [text.indexOf('H') % 10, Math.floor(text.indexOf('H') / 10), text.indexOf('*') % 10, Math.floor(text.indexOf('*') / 10)];
  assert.equal(Number(routes[0]), Math.abs(hx - fx) + Math.abs(hy - fy), 'nothing is in the way: the Manhattan distance');
  await page.screenshot({ path: join(shots, 'bits-snake.png'), fullPage: true });
  await page.close();
});

test('bits: Tetris shows the zone\'s row words and the solver\'s zone word', async () => {
  const field = 'X_X_XXX...X_XXX..XXX';
  const { page } = await open(`#/tetris?field=${field}&queue=LJSZIOT`);
  await page.keyboard.press('b');
  await bitsAt(page, 0);
  const zone = big(await page.textContent('[data-testid=bits-zone]'));
  const rows = (await board(page)).split('\n').filter((r) => /^[.#X]{10}$/.test(r)).reverse();
  let want = 0n;
  rows.forEach((r, y) => [...r].forEach((c, x) => { if (c !== '.') want |= 1n << BigInt(10 * y + x); }));
  assert.equal(zone, want);
  assert.notEqual(zone, 0n);
  await page.screenshot({ path: join(shots, 'bits-tetris.png'), fullPage: true });
  await page.close();
});
