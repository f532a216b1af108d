// What a new user met on the pages, each checked where it could fail again: a live run at the
// timeline's speed, bad links that keep their valid moves and say what is wrong, another
// game's record named, seeds past 2^53, menus that do not take the game's arrows, Space after
// a button, and errors in view on a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { api, cli, open, board, moves, waitMoves, tmp } from '../lib.mjs';

const error = (page) => page.textContent('[data-testid=error]');

test('controls: a live run plays at the timeline\'s speed, and the link follows the board', async () => {
  const { page } = await open('#/2048?seed=5');
  await page.selectOption('[data-testid=budget]', '20000');
  await page.selectOption('[data-testid=speed]', '5');
  await page.click('[data-testid=auto]');
  // The solver streams far ahead of the board, which steps at 5 moves a second.
  await page.waitForFunction(() => Number((document.querySelector('[data-testid=auto-state]').textContent.match(/move (\d+)/) || [])[1] || 0) > 40,
    null, { timeout: 60000 });
  const shown = await moves(page);
  assert.ok(shown < 30, `the board is at move ${shown}`);
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=board]').dataset.moves) > n, shown);
  // The link follows on the page's next tick: wait for it rather than read it once.
  await page.waitForFunction(() => /[?&]k=\d+/.test(document.querySelector('[data-testid=share]').getAttribute('href') || ''),
    null, { timeout: 10000 });
  const link = await page.getAttribute('[data-testid=share]', 'href');
  assert.match(link, /[?&]k=\d+/);
  await page.click('[data-testid=auto]');
  await page.close();
});

test('controls: a bad link shows its valid moves and says which move is bad', async () => {
  // Up five times from the centre of 10x10 reaches the top row; the sixth runs into the wall,
  // and a seventh comes after the end.
  const { page } = await open('#/snake?size=10x10&seed=7&moves=UUUUUUUL');
  assert.equal(await moves(page), 6);
  assert.match(await error(page), /\(move 7\) comes after the game ended.*showing the 6 moves before it/);
  const p2 = (await open('#/2048?seed=5&moves=LRX')).page;
  assert.match(await error(p2), /"X" \(move 3\) is not one of U, D, L, R; showing the 2 moves before it|\(move [12]\)/);
  assert.ok(await moves(p2) <= 2);
  const p3 = (await open('#/2048?seed=5&moves=LR&k=-3')).page;
  assert.match(await error(p3), /k=-3 is not a move from 0 to 2/);
  for (const p of [page, p2, p3]) await p.close();
});

test('controls: a link\'s bad settings are named on the page, never replaced silently', async () => {
  const cases = [
    ['#/2048?seed=abc', [/seed=abc is not a seed/], /seed=\d+/],
    ['#/snake?size=99x99&player=bogus&seed=3', [/size=99x99 is not one of the sizes.*using 10x10/, /player=bogus is not a player.*using dash/], /size=10x10/],
    ['#/samegame?w=15&h=10&c=9&seed=2', [/size=15x10 is not one of the sizes.*using 15x15/, /c=9 is not a number of colours/], /w=15&h=15/],
    ['#/drop7?mode=easy&seed=4', [/mode=easy is not a mode.*using hardcore/], /mode=hardcore/],
    ['#/tetris?queue=QQ&height=9&seed=1', [/queue=QQ is not a queue/, /height=9 is not a PC height/], /seed=1/],
  ];
  for (const [hash, notes, url] of cases) {
    const { page } = await open(hash);
    const e = await error(page);
    for (const n of notes) assert.match(e, n, `${hash}: ${e}`);
    // The page plays what it says it uses, and the link says it too.
    assert.match(page.url(), url);
    assert.ok((await board(page)).length > 0);
    await page.close();
  }
  // A Sequence game's record is saved under a short name (not its whole disc stream).
  const { page: d7 } = await open('#/drop7?mode=sequence&seed=9&moves=1234');
  await d7.click('[data-testid=export]');
  await d7.waitForSelector('[data-testid=board][data-export-name]');
  const name = await d7.getAttribute('[data-testid=board]', 'data-export-name');
  assert.match(name, /^drop7-sequence-4moves\.json$/);
  await d7.close();
  // A good link says nothing.
  const { page } = await open('#/snake?size=12x12&seed=3&player=cycle');
  assert.equal((await error(page)).trim(), '');
  await page.close();
});

test('controls: seeds past 2^53 stay exact, and another game\'s record is named', async () => {
  const seed = '18446744073709551615';
  const { page } = await open(`#/2048?seed=${seed}`);
  const want = await api('/api/2048/position', { seed, moves: '' });
  assert.equal(await board(page), want.text);
  assert.equal(await page.inputValue('[data-testid=seed]'), seed);
  assert.match(await page.getAttribute('[data-testid=share]', 'href'), new RegExp(`seed=${seed}`));
  const rec = join(tmp, 'snake-for-2048.json');
  cli('snake', 'play', '--size', '6x6', '--seed', '3', '--record', rec);
  await page.setInputFiles('[data-testid=load]', rec);
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.equal(await error(page), 'record: this is a Snake record; this page reads 2048 records');
  await page.close();
});

test('controls: a menu left focused gives the arrows to the game, and Space plays after a button', async () => {
  const { page } = await open('#/snake?size=10x10&seed=4');
  await page.focus('[data-testid=size]');
  await page.keyboard.press('ArrowUp');
  await waitMoves(page, 1);
  assert.equal(await page.inputValue('[data-testid=size]'), '10x10');
  await page.keyboard.press('ArrowUp');
  await waitMoves(page, 2);
  await page.click('[data-testid=undo]');
  await waitMoves(page, 1);
  // Space now plays the timeline (from the start), not Undo again.
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').textContent === 'Pause'
    || Number(document.querySelector('[data-testid=board]').dataset.moves) === 2);
  assert.notEqual(await moves(page), 0);
  await page.close();
});

test('controls: on a phone a bad link\'s error is in view above the board', async () => {
  const { page } = await open('#/2048?seed=5&moves=LRX', { width: 390, height: 844 });
  const box = await page.locator('[data-testid=error]').boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 844, JSON.stringify(box));
  const b = await page.locator('[data-testid=board]').boundingBox();
  assert.ok(box.y < b.y, 'the error is above the board');
  await page.close();
});

test('controls: Snake plays on a phone with the arrow pad, its body drawn connected', async () => {
  const { page } = await open('#/snake?size=8x8&seed=4', { width: 390, height: 844 });
  assert.ok(await page.isVisible('[data-testid=pad-U]'));
  await page.click('[data-testid=pad-U]');
  await waitMoves(page, 1);
  await page.click('[data-testid=pad-L]');
  await waitMoves(page, 2);
  await page.close();
  // Watched to a full board, every body cell links toward the tail but the tail's.
  const { page: p2 } = await open('#/snake?size=6x6&seed=4');
  await p2.selectOption('[data-testid=speed]', 'max');
  await p2.click('[data-testid=auto]');
  await p2.waitForFunction(() => /played [\d,]+ moves/.test(document.querySelector('[data-testid=auto-state]').textContent), null, { timeout: 60000 });
  await p2.waitForSelector('[data-testid=board][data-settled=true]');
  const linked = await p2.locator('.gsnake .c[class*="to-"]').count();
  const body = await p2.locator('.gsnake .c.body, .gsnake .c.head').count();
  assert.equal(linked, body - 1);
  await p2.close();
});

test('controls: boards are grids a screen reader can read', async () => {
  const { page } = await open('#/2048?seed=5');
  assert.equal(await page.getAttribute('[data-testid=board]', 'role'), 'grid');
  const labels = await page.$$eval('.g2048 [role=gridcell]', (cs) => cs.map((c) => c.getAttribute('aria-label')));
  assert.equal(labels.length, 16);
  assert.equal(labels.filter((l) => !/empty$/.test(l)).length, 2, labels.join('; '));
  assert.equal(await page.getAttribute('[data-testid=status]', 'aria-live'), 'polite');
  await page.close();
  const { page: p2 } = await open('#/snake?size=8x8&seed=4');
  assert.match(await p2.getAttribute('[data-testid=board]', 'aria-label'), /head at column \d, row \d; fruit at column \d, row \d; length 1/);
  await p2.close();
});
