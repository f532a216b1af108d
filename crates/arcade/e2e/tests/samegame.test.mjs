// SameGame in the browser: clicks and the keyboard cursor, the hover's points, the solver's
// hint and its whole plan played out, records in and out and URLs, each checked against the
// engine (through the API from the test, not the page) or the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, cli, open, board, moves, waitMoves, exported, drag, autoDone, tmp, shots, sameAtLink } from '../lib.mjs';

const cell = (t) => { const [x, y] = t.split('.'); return `[data-testid=board] .c[data-x="${x}"][data-y="${y}"]`; };
const legal = async (page) => (await page.getAttribute('[data-testid=board]', 'data-legal')).split(/[\s,]+/).filter(Boolean);
const engine = ({ seed, ...setup }, tokens) => api('/api/samegame/position', { setup, seed: String(seed ?? 0), moves: tokens.join('-') });

test('samegame: clicks and the cursor remove what the engine removes, hover shows the points, undo/redo, a hint, and the record replays', async () => {
  const start = { width: 10, height: 10, colors: 3, seed: 21 };
  const { page, ready } = await open('#/samegame?w=10&h=10&c=3&seed=21');
  console.log(`samegame page interactive in ${ready} ms`);
  assert.equal(await board(page), (await engine(start, [])).now.board.trimEnd());
  const played = [];
  for (let i = 0; i < 6; i++) {
    // A different group each time: the last one the page lists.
    const ts = await legal(page);
    const t = ts[(i * 7) % ts.length];
    await page.hover(cell(t));
    const want = (await engine(start, played)).now;
    const label = want.cells[(start.height - 1 - Number(t.split('.')[1])) * start.width + Number(t.split('.')[0])];
    assert.ok(label > 0, `${t} is in a group`);
    assert.equal(Number(await page.getAttribute('[data-testid=group]', 'data-points')), want.groups[label - 1].points);
    await page.click(cell(t));
    played.push(t);
    await waitMoves(page, i + 1);
  }
  const after = (await engine(start, played)).now;
  assert.equal(await board(page), after.board.trimEnd());
  assert.equal(Number((await page.textContent('[data-testid=score]')).replace(/,/g, '')), after.score);
  // The keyboard: the cursor starts bottom left; arrows move it, Enter removes its group.
  const t = (await legal(page))[0];
  const [x, y] = t.split('.').map(Number);
  await page.focus('[data-testid=board]');
  for (let k = 0; k < x; k++) await page.keyboard.press('ArrowRight');
  for (let k = 0; k < y; k++) await page.keyboard.press('ArrowUp');
  if (x + y === 0) await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('.gsame .cur').count(), 1);
  await page.keyboard.press('Enter');
  played.push(t);
  await waitMoves(page, 7);
  assert.equal(await board(page), (await engine(start, played)).now.board.trimEnd());
  await page.keyboard.press('z');
  await waitMoves(page, 6);
  assert.equal(await board(page), after.board.trimEnd());
  await page.click('[data-testid=redo]');
  await waitMoves(page, 7);
  const file = await exported(page, 'samegame-hand.json');
  const rep = JSON.parse(cli('samegame', 'replay', file, '--json'));
  assert.equal(rep.moves, 7);
  assert.equal(rep.score, Number((await page.textContent('[data-testid=score]')).replace(/,/g, '')));
  // The hint names a click on a group and outlines that group.
  await page.selectOption('[data-testid=width]', '10');
  await page.keyboard.press('h');
  await page.waitForSelector('[data-testid=hint][data-click]', { timeout: 30000 });
  const click = await page.getAttribute('[data-testid=hint]', 'data-click');
  assert.ok((await legal(page)).includes(click), click);
  assert.ok(await page.locator('.gsame .hint').count() >= 2);
  await page.close();
});

test('samegame: Solve plans the whole game, plays it out as the CLI solves it, and the URL reproduces a move', async () => {
  const start = { width: 15, height: 15, colors: 4, seed: 8 };
  const { page } = await open('#/samegame?w=15&h=15&c=4&seed=8');
  await page.selectOption('[data-testid=goal]', 'clear');
  await page.selectOption('[data-testid=width]', '1000');
  await page.selectOption('[data-testid=speed]', '60');
  await page.click('[data-testid=auto]');
  await autoDone(page, /clicks to [\d,]+ points/, 120000);
  const n = Number((await page.textContent('[data-testid=auto-state]')).match(/(\d+) clicks/)[1]);
  await waitMoves(page, n, 60000);
  const file = await exported(page, 'samegame-solved.json');
  const got = JSON.parse(readFileSync(file, 'utf8'));
  const gen = join(tmp, 'samegame-15.txt');
  writeFileSync(gen, cli('samegame', 'gen', '--width', '15', '--height', '15', '--colors', '4', '--seed', '8'));
  const want = JSON.parse(cli('samegame', 'solve', gen, '--goal', 'clear', '--width', '1000', '--json')).boards[0];
  assert.deepEqual(got.moves.map((m) => [m.x, m.y]), want.moves);
  assert.equal(got.score, want.score);
  assert.match(await page.textContent('[data-testid=status]'), want.cleared ? /cleared/ : /game over/);
  const half = Math.floor(n / 2);
  await drag(page, half);
  await waitMoves(page, half);
  const tokens = want.moves.slice(0, half).map(([x, y]) => `${x}.${y}`);
  const mid = (await engine(start, tokens)).now;
  assert.equal(await board(page), mid.board.trimEnd());
  // Hover the biggest group there (a move in the past: the page knows it from the frame).
  const big = mid.groups.reduce((a, b) => (b.size > a.size ? b : a));
  await page.check('[data-testid=symbols]');
  await page.hover(cell(big.at.join('.')));
  assert.equal(Number(await page.getAttribute('[data-testid=group]', 'data-size')), big.size);
  await page.screenshot({ path: join(shots, 'arcade-samegame.png') });
  await sameAtLink(page);
  await page.close();
});

test('samegame: a CLI record loads, scrubs and plays back; a forged one is refused', async () => {
  const gen = join(tmp, 'samegame-20.txt');
  writeFileSync(gen, cli('samegame', 'gen', '--width', '20', '--height', '10', '--colors', '5', '--seed', '2'));
  const file = join(tmp, 'samegame-cli.json');
  cli('samegame', 'solve', gen, '--width', '5', '--record', file);
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  const start = { board: rec.board };
  const { page } = await open('#/samegame?w=10&h=10&c=3&seed=1');
  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForFunction(() => /loaded a record of \d+ clicks/.test(document.querySelector('[data-testid=auto-state]').textContent));
  const n = rec.moves.length;
  const tokens = rec.moves.map((m) => `${m.x}.${m.y}`);
  for (const k of [0, Math.floor(n / 3), n - 1, n]) {
    await drag(page, k);
    await waitMoves(page, k);
    assert.equal(await board(page), (await engine(start, tokens.slice(0, k))).now.board.trimEnd(), `move ${k}`);
  }
  assert.equal(Number((await page.textContent('[data-testid=score]')).replace(/,/g, '')), rec.score);
  await sameAtLink(page);
  await drag(page, n - 4);
  await page.selectOption('[data-testid=speed]', '60');
  await page.click('[data-testid=play]');
  await waitMoves(page, n);
  rec.moves[1].points += 1;
  const bad = join(tmp, 'samegame-bad.json');
  writeFileSync(bad, JSON.stringify(rec));
  await page.setInputFiles('[data-testid=load]', bad);
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.match(await page.textContent('[data-testid=error]'), /^record: move 2/);
  await page.close();
});
