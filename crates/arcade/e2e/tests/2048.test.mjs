// 2048 in the browser: real key presses and clicks, every answer checked against the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, open, board, moves, waitMoves, exported, drag, tmp, shots, sameAtLink } from '../lib.mjs';

const KEYS = { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' };

test('2048: keys play legal moves, undo/redo, and the exported record replays in the CLI', async () => {
  const { page, ready } = await open('#/2048?seed=5');
  console.log(`2048 page interactive in ${ready} ms`);
  assert.ok(ready < 3000, `page took ${ready} ms`);
  const times = [];
  const boards = [await board(page)];
  for (let i = 0; i < 30; i++) {
    const legal = await page.getAttribute('[data-testid=board]', 'data-legal');
    assert.ok(legal.length > 0, 'a legal move');
    await page.keyboard.press(KEYS[legal[i % legal.length]]);
    await waitMoves(page, i + 1);
    times.push(Number(await page.getAttribute('[data-testid=board]', 'data-round-trip')));
    boards.push(await board(page));
  }
  times.sort((a, b) => a - b);
  console.log(`hand move round trip (key to board drawn): median ${times[15].toFixed(1)} ms, max ${times[29].toFixed(1)} ms (30 moves)`);
  assert.ok(times[29] < 200, `a hand move took ${times[29]} ms`);
  // Undo and redo by the buttons and the keys.
  await page.click('[data-testid=undo]');
  await waitMoves(page, 29);
  assert.equal(await board(page), boards[29]);
  await page.keyboard.press('z');
  await waitMoves(page, 28);
  assert.equal(await board(page), boards[28]);
  await page.click('[data-testid=redo]');
  await page.keyboard.press('y');
  await waitMoves(page, 30);
  assert.equal(await board(page), boards[30]);
  // The record the page exports is the game, by the CLI's own checker.
  const file = await exported(page, 'hand.json');
  const rep = JSON.parse(cli('2048', 'replay', file, '--json'));
  assert.equal(rep.moves, 30);
  assert.equal(rep.scores[0], Number((await page.textContent('[data-testid=score]')).replace(/,/g, '')));
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).final_board, boards[30]);
  // A hint values every legal move and names the best.
  await page.click('[data-testid=hint-button]');
  await page.waitForSelector('[data-testid=hint][data-best]');
  const best = await page.getAttribute('[data-testid=hint]', 'data-best');
  assert.ok((await page.getAttribute('[data-testid=board]', 'data-legal')).includes(best));
  await page.close();
});

test('2048: the expectimax plays a whole game live, and the shared URL reproduces it', async () => {
  const { page } = await open('#/2048?seed=11');
  await page.selectOption('[data-testid=budget]', '20000');
  await page.selectOption('[data-testid=speed]', 'max');
  await page.click('[data-testid=auto]');
  await page.waitForFunction(() => /played \d+ moves/.test(document.querySelector('[data-testid=auto-state]').textContent),
    null, { timeout: 240000 });
  await page.waitForSelector('[data-testid=board][data-settled=true]');
  const status = await page.textContent('[data-testid=status]');
  assert.match(status, /game over/);
  const n = await moves(page);
  assert.ok(n > 200, `${n} moves`);
  // The CLI plays the same game from the same seed and budget.
  const file = await exported(page, 'auto.json');
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  const cliRec = join(tmp, 'cli.json');
  cli('2048', 'play', '--games', '1', '--seed', '11', '--budget', '20000', '--max-depth', '10', '--tt-bits', '20', '--record', cliRec);
  const want = JSON.parse(readFileSync(cliRec, 'utf8'));
  const wantOne = Array.isArray(want) ? want[0] : want;
  assert.equal(rec.moves, wantOne.moves);
  assert.equal(rec.final_board, wantOne.final_board);
  await page.screenshot({ path: join(shots, 'arcade-2048.png') });
  // The position's URL, opened fresh, shows the same board.
  await sameAtLink(page);
  await page.close();
});

test('2048: a CLI record loads, scrubs, and plays back on the timeline', async () => {
  const file = join(tmp, 'played.json');
  cli('2048', 'play', '--games', '1', '--seed', '3', '--depth', '1', '--max-moves', '300', '--record', file);
  const lines = cli('2048', 'replay', file, '--boards').trim().split('\n').map((l) => l.split('\t'));
  const { page } = await open('#/2048?seed=1');
  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForFunction(() => /loaded a record of 300 moves/.test(document.querySelector('[data-testid=auto-state]').textContent));
  for (const k of [0, 150, 299, 1]) {
    await drag(page, k);
    await waitMoves(page, k);
    assert.equal(await board(page), lines[k][1], `board before move ${k}`);
  }
  // The slider from the keyboard: one move on.
  await page.focus('[data-testid=timeline]');
  await page.keyboard.press('ArrowRight');
  await waitMoves(page, 2);
  assert.equal(await board(page), lines[2][1]);
  // Play from 290 at 60 moves a second to the end.
  await drag(page, 290);
  await waitMoves(page, 290);
  await page.selectOption('[data-testid=speed]', '60');
  await page.click('[data-testid=play]');
  await waitMoves(page, 300);
  // A record that does not replay is refused with the checker's message.
  const bad = JSON.parse(readFileSync(file, 'utf8'));
  const one = Array.isArray(bad) ? bad[0] : bad;
  one.spawns[5][1] = 4096;
  writeFileSync(join(tmp, 'bad.json'), JSON.stringify(one));
  await page.setInputFiles('[data-testid=load]', join(tmp, 'bad.json'));
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.match(await page.textContent('[data-testid=error]'), /^record: /);
  await page.close();
});
