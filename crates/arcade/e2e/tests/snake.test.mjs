// Snake in the browser: keys, a player's route, a player's whole game, records and URLs, each
// checked against the engine (through the API from the test, not the page) or the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, cli, open, board, moves, waitMoves, exported, drag, autoDone, tmp, shots, sameAtLink } from '../lib.mjs';

const KEYS = { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' };

// A move from the board's text that does not crash: onto an empty cell or the fruit.
function safeMove(text) {
  const rows = text.split('\n');
  const y = rows.findIndex((r) => r.includes('H'));
  const x = rows[y].indexOf('H');
  const at = (x, y) => (y >= 0 && y < rows.length && x >= 0 && x < rows[0].length ? rows[y][x] : '#');
  const steps = { U: [x, y - 1], R: [x + 1, y], D: [x, y + 1], L: [x - 1, y] };
  return Object.keys(steps).find((d) => '.*'.includes(at(...steps[d])));
}

const engine = (size, seed, moves) => api('/api/snake/position', { setup: { size }, seed, moves });

test('snake: keys move the snake as the engine does, undo/redo, a hint, and the record replays', async () => {
  const { page, ready } = await open('#/snake?size=8x8&seed=4');
  console.log(`snake page interactive in ${ready} ms`);
  let played = '';
  for (let i = 0; i < 12; i++) {
    const d = safeMove(await board(page));
    await page.keyboard.press(KEYS[d]);
    played += d;
    await waitMoves(page, i + 1);
  }
  // The page builds its board from the frames; the engine draws it itself.
  assert.equal(await board(page), (await engine('8x8', 4, played)).text);
  await page.keyboard.press('z');
  await waitMoves(page, 11);
  assert.equal(await board(page), (await engine('8x8', 4, played.slice(0, 11))).text);
  await page.click('[data-testid=redo]');
  await waitMoves(page, 12);
  const file = await exported(page, 'snake-hand.json');
  const rep = JSON.parse(cli('snake', 'replay', file, '--json'));
  assert.equal(rep.moves, 12);
  assert.equal(rep.score, Number(await page.textContent('[data-testid=score]')));
  // The hint names a legal move and dots its route on the board.
  await page.selectOption('[data-testid=player]', 'astar');
  await page.keyboard.press('h');
  await page.waitForSelector('[data-testid=hint][data-dir]');
  const dir = await page.getAttribute('[data-testid=hint]', 'data-dir');
  assert.ok((await page.getAttribute('[data-testid=board]', 'data-legal')).includes(dir));
  assert.ok(await page.locator('.gsnake .route').count() > 0);
  await page.close();
});

test('snake: a player plays the whole game live, the CLI plays the same, and the URL reproduces a move', async () => {
  const { page } = await open('#/snake?size=8x8&seed=9');
  await page.selectOption('[data-testid=player]', 'knit');
  await page.selectOption('[data-testid=speed]', 'max');
  await page.click('[data-testid=auto]');
  await autoDone(page, /knit played [\d,]+ moves/);
  await page.waitForSelector('[data-testid=board][data-settled=true]');
  assert.match(await page.textContent('[data-testid=status]'), /won/);
  const file = await exported(page, 'snake-auto.json');
  const cliRec = join(tmp, 'snake-cli.json');
  cli('snake', 'play', '--player', 'knit', '--size', '8x8', '--seed', '9', '--record', cliRec);
  const want = JSON.parse(readFileSync(cliRec, 'utf8'));
  const got = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(got.moves, want.moves);
  assert.deepEqual(got.fruits, want.fruits);
  const n = await moves(page);
  await drag(page, Math.floor(n / 2));
  await waitMoves(page, Math.floor(n / 2));
  assert.equal(await board(page), (await engine('8x8', 9, want.moves.slice(0, Math.floor(n / 2)))).text);
  await page.screenshot({ path: join(shots, 'arcade-snake.png') });
  await sameAtLink(page);
  await page.close();
});

test('snake: a CLI record with a crash loads, scrubs and plays back; a forged one is refused', async () => {
  const file = join(tmp, 'snake-played.json');
  cli('snake', 'play', '--player', 'shortest', '--size', '10x10', '--seed', '3', '--record', file);
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  const { page } = await open('#/snake?size=6x6&seed=1');
  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForFunction(() => /loaded a record of \d+ moves by shortest/.test(document.querySelector('[data-testid=auto-state]').textContent));
  const n = rec.moves.length;
  for (const k of [0, Math.floor(n / 3), n - 1, n]) {
    await drag(page, k);
    await waitMoves(page, k);
    assert.equal(await board(page), (await engine('10x10', 3, rec.moves.slice(0, k))).text, `move ${k}`);
  }
  await drag(page, n - 5);
  await page.selectOption('[data-testid=speed]', '60');
  await page.click('[data-testid=play]');
  await waitMoves(page, n);
  assert.match(await page.textContent('[data-testid=status]'), /ran into itself|wall|stopped/);
  rec.fruits[2] = (rec.fruits[2] + 1) % 100;
  const bad = join(tmp, 'snake-bad.json');
  (await import('node:fs')).writeFileSync(bad, JSON.stringify(rec));
  await page.setInputFiles('[data-testid=load]', bad);
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.match(await page.textContent('[data-testid=error]'), /^record: move \d+: fruit 3 is on cell/);
  await page.close();
});
