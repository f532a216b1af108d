// Drop7 in the browser: clicks, digits, the cursor and Enter, every board checked against the
// engine (through the API from the test, not the page); the hint's values; the expectimax
// playing whole games as the CLI plays them; CLI records in (seeded and Sequence) and forged
// ones refused; u64 seeds; and a phone's screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, cli, open, board, moves, waitMoves, exported, drag, autoDone, tmp, shots, sameAtLink } from '../lib.mjs';

const col = (c) => `[data-testid=board] .col[data-col="${c}"]`;
const attr = (page, name) => page.getAttribute('[data-testid=board]', name);
const legal = async (page) => (await attr(page, 'data-legal')).split('');
const num = async (page, testid) => Number((await page.textContent(`[data-testid=${testid}]`)).replace(/,/g, ''));
const engine = (setup, seed, ms) => api('/api/drop7/position', { setup, seed: String(seed), moves: ms });
// A record's seed as written (a u64 does not survive JSON.parse).
const seedText = (file) => readFileSync(file, 'utf8').match(/"seed":\s*(\d+)/)[1];
const disc = (p) => (!p ? undefined : p.state === 'number' ? String(p.number) : p.state);

// The page shows what the engine says about the same moves: board text, score, level, drops, next.
async function sameAsEngine(page, setup, seed, ms) {
  const now = (await engine(setup, seed, ms)).now;
  assert.equal(await board(page), now.text, `after ${ms}`);
  assert.equal(await num(page, 'score'), now.score);
  assert.equal(await num(page, 'level'), now.level);
  assert.equal(await num(page, 'drops'), now.drops_left);
  assert.equal(await page.getAttribute('[data-testid=next]', 'data-d') ?? undefined, disc(now.next));
  return now;
}

test('drop7: clicks, digits and the cursor drop what the engine drops; undo/redo; the hint values every column; the record replays', async () => {
  const setup = { mode: 'hardcore' };
  const { page, ready } = await open('#/drop7?seed=5');
  console.log(`drop7 page interactive in ${ready} ms`);
  assert.ok(ready < 3000, `page took ${ready} ms`);
  let now = await sameAsEngine(page, setup, 5, '');
  const played = [];
  const boards = [await board(page)];
  const times = [];
  for (let i = 0; i < 12; i++) {
    const ok = await legal(page);
    assert.ok(ok.length > 0, 'a legal column');
    // The lowest legal column (the game goes on), a different one each time among equals.
    const low = Math.min(...ok.map((c) => now.columns[c - 1].length));
    const lows = ok.filter((c) => now.columns[c - 1].length === low);
    const c = lows[i % lows.length];
    const how = i % 4;
    if (how === 0) await page.click(col(c));
    else if (how === 1) await page.keyboard.press(c);
    else {
      // The cursor: arrows to the column, then Enter (or Down).
      const at = Number(await attr(page, 'data-cursor'));
      for (let k = 0; k < Math.abs(c - at); k++) await page.keyboard.press(c > at ? 'ArrowRight' : 'ArrowLeft');
      assert.equal(Number(await attr(page, 'data-cursor')), Number(c));
      await page.keyboard.press(how === 2 ? 'Enter' : 'ArrowDown');
    }
    played.push(c);
    await waitMoves(page, i + 1);
    times.push(Number(await attr(page, 'data-round-trip')));
    now = await sameAsEngine(page, setup, 5, played.join(''));
    boards.push(now.text);
  }
  times.sort((a, b) => a - b);
  console.log(`hand drop round trip (input to board drawn): median ${times[6].toFixed(1)} ms, max ${times[11].toFixed(1)} ms (12 drops)`);
  // Undo and redo by the buttons and the keys.
  await page.click('[data-testid=undo]');
  await waitMoves(page, 11);
  assert.equal(await board(page), boards[11]);
  await page.keyboard.press('z');
  await waitMoves(page, 10);
  assert.equal(await board(page), boards[10]);
  await page.click('[data-testid=redo]');
  await page.keyboard.press('y');
  await waitMoves(page, 12);
  assert.equal(await board(page), boards[12]);
  // The hint: every legal column valued (as the engine values them), the best legal and marked.
  await page.selectOption('[data-testid=depth]', '2');
  await page.keyboard.press('h');
  await page.waitForSelector('[data-testid=hint][data-best]');
  const best = await page.getAttribute('[data-testid=hint]', 'data-best');
  const ok = await legal(page);
  assert.ok(ok.includes(best), `${best} in ${ok}`);
  const values = JSON.parse(await page.getAttribute('[data-testid=hint]', 'data-values'));
  assert.deepEqual(Object.keys(values).sort(), ok);
  const want = await api('/api/drop7/hint', { from: { setup, seed: '5', moves: played.join('') }, search: { depth: 2 } });
  assert.equal(want.move, best);
  for (const v of want.values) assert.equal(values[v.move], v.value);
  assert.equal(Math.max(...Object.values(values)), values[best]);
  assert.equal(await page.textContent(`[data-testid=value-${best}]`), '★ best');
  const shown = await page.textContent('[data-testid=hint]');
  assert.doesNotMatch(shown, /\d\.\d/, 'values are rounded');
  assert.match(shown, /column \d\s*[−\d]/);
  // The hint puts the cursor on its column: Enter plays it.
  assert.equal(await attr(page, 'data-cursor'), best);
  await page.keyboard.press('Enter');
  played.push(best);
  await waitMoves(page, 13);
  now = await sameAsEngine(page, setup, 5, played.join(''));
  // The record the page exports replays in the CLI.
  const file = await exported(page, 'drop7-hand.json');
  const rep = JSON.parse(cli('drop7', 'replay', file, '--json'));
  assert.equal(rep.ok, true);
  assert.equal(rep.games[0].turns, 13);
  assert.equal(rep.games[0].score, await num(page, 'score'));
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(rec.turns.map((t) => String(t.column)), played);
  assert.equal(rec.turns[12].position, now.text);
  await page.close();
});

test('drop7: Auto plays whole games as `drop7 play` plays them, and the link reproduces a middle move', async () => {
  const { page } = await open('#/drop7?seed=7');
  await page.selectOption('[data-testid=depth]', '2');
  assert.match(await page.textContent('[data-testid=cli]'), /drop7 play --games 1 --seed 7 --depth 2/);
  const t0 = Date.now();
  await page.selectOption('[data-testid=speed]', 'max');
  await page.click('[data-testid=auto]');
  await autoDone(page, /drops to [\d,]+ points/, 120000);
  await page.waitForSelector('[data-testid=board][data-settled=true]');
  const n = await moves(page);
  console.log(`auto, Hardcore seed 7 depth 2: ${n} drops streamed in ${Date.now() - t0} ms`);
  assert.match(await page.textContent('[data-testid=status]'), /game over/);
  assert.deepEqual(await legal(page), []);
  const file = await exported(page, 'drop7-auto.json');
  const got = JSON.parse(readFileSync(file, 'utf8'));
  const cliRec = join(tmp, 'drop7-cli-7.json');
  cli('drop7', 'play', '--games', '1', '--seed', '7', '--depth', '2', '--record', cliRec);
  const want = JSON.parse(readFileSync(cliRec, 'utf8'));
  assert.equal(seedText(file), seedText(cliRec));
  assert.deepEqual(got.turns.map((t) => t.column), want.turns.map((t) => t.column));
  assert.equal(got.final_score, want.final_score);
  assert.equal(await num(page, 'score'), want.final_score);
  assert.equal(await board(page), want.turns.at(-1).position);
  // A middle move, its board as the CLI's record has it; the hint there; the link.
  const mid = Math.floor(n / 2) + 7;
  await drag(page, mid);
  await waitMoves(page, mid);
  assert.equal(await board(page), want.turns[mid - 1].position);
  await page.keyboard.press('h');
  await page.waitForSelector('[data-testid=hint][data-best]');
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.activeElement?.blur());
  await page.screenshot({ path: join(shots, 'arcade-drop7.png') });
  await sameAtLink(page);
  await page.close();

  // Normal mode (its own opening board, gray discs), depth 1.
  const p2 = (await open('#/drop7?mode=normal&seed=3')).page;
  await p2.selectOption('[data-testid=depth]', '1');
  await p2.selectOption('[data-testid=speed]', 'max');
  await p2.click('[data-testid=auto]');
  await autoDone(p2, /drops to [\d,]+ points/, 120000);
  await p2.waitForSelector('[data-testid=board][data-settled=true]');
  const f2 = await exported(p2, 'drop7-auto-normal.json');
  const c2 = join(tmp, 'drop7-cli-normal-3.json');
  cli('drop7', 'play', '--mode', 'normal', '--games', '1', '--seed', '3', '--depth', '1', '--record', c2);
  const [g2, w2] = [f2, c2].map((f) => JSON.parse(readFileSync(f, 'utf8')));
  assert.equal(g2.turns.length, w2.turns.length);
  assert.deepEqual(g2.turns.map((t) => t.column), w2.turns.map((t) => t.column));
  assert.equal(g2.final_score, w2.final_score);
  await p2.close();
});

test('drop7: CLI records load (seeded and Sequence) and scrub; a forged one is refused', async () => {
  const file = join(tmp, 'drop7-normal.json');
  cli('drop7', 'play', '--mode', 'normal', '--games', '1', '--seed', '4', '--depth', '1', '--max-moves', '120', '--record', file);
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  const cols = rec.turns.map((t) => String(t.column)).join('');
  const setup = { mode: 'normal', game_seed: seedText(file) };
  const { page } = await open('#/drop7?seed=1');
  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForFunction(() => /loaded a record of 120 drops/.test(document.querySelector('[data-testid=auto-state]').textContent));
  assert.equal(await page.inputValue('[data-testid=mode]'), 'normal');
  for (const k of [0, 45, 119, 1, 120]) {
    await drag(page, k);
    await waitMoves(page, k);
    await sameAsEngine(page, setup, 0, cols.slice(0, k));
    assert.equal(await board(page), k ? rec.turns[k - 1].position : rec.start, `move ${k}`);
  }
  // Step back by the button, then play the last ten at 60 a second.
  await page.click('[data-testid=step-back]');
  await waitMoves(page, 119);
  await drag(page, 110);
  await waitMoves(page, 110);
  await sameAtLink(page);
  await page.selectOption('[data-testid=speed]', '60');
  await page.click('[data-testid=play]');
  await waitMoves(page, 120);
  // A forged record: one turn's score off by one.
  rec.turns[5].score += 1;
  const bad = join(tmp, 'drop7-bad.json');
  writeFileSync(bad, JSON.stringify(rec));
  await page.setInputFiles('[data-testid=load]', bad);
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  const err = await page.textContent('[data-testid=error]');
  assert.match(err, /^record: turn 6: /);
  assert.ok(!err.includes('\n'), 'one line');
  assert.equal(await moves(page), 120, 'the game on screen stays');

  // A Sequence game's record: its stream comes back, in the link too.
  const stream = join(tmp, 'drop7-stream.txt');
  writeFileSync(stream, '4#2715#36163#5#2274153#6#1452#37216#4#357\n645751332615744215367\n');
  const seq = join(tmp, 'drop7-seq.json');
  cli('drop7', 'play', '--mode', 'sequence', '--stream', stream, '--depth', '1', '--record', seq);
  const srec = JSON.parse(readFileSync(seq, 'utf8'));
  await page.setInputFiles('[data-testid=load]', seq);
  await page.waitForFunction(() => /loaded a record of \d+ drops \(sequence/.test(document.querySelector('[data-testid=auto-state]').textContent));
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  const sn = srec.turns.length;
  await drag(page, sn);
  await waitMoves(page, sn);
  assert.equal(await board(page), srec.turns[sn - 1].position);
  assert.match(await page.inputValue('[data-testid=stream]'), /^4#2715#36/);
  await drag(page, 9);
  await waitMoves(page, 9);
  assert.equal(await board(page), srec.turns[8].position);
  await sameAtLink(page);
  await page.close();
});

test('drop7: on a phone the board and the error line are in view; a u64 seed round-trips', async () => {
  const max = '18446744073709551615';
  const { page } = await open(`#/drop7?seed=${max}`, { width: 390, height: 844 });
  assert.equal(await page.inputValue('[data-testid=seed]'), max);
  assert.match(page.url(), new RegExp(`seed=${max}`));
  await sameAsEngine(page, { mode: 'hardcore' }, max, '');
  // The CLI deals the same game from that seed.
  const cliRec = join(tmp, 'drop7-cli-max.json');
  cli('drop7', 'play', '--games', '1', '--seed', max, '--depth', '1', '--max-moves', '1', '--record', cliRec);
  assert.equal(await board(page), JSON.parse(readFileSync(cliRec, 'utf8')).start);
  const inView = async (sel) => {
    const b = await page.locator(sel).boundingBox();
    assert.ok(b && b.y >= 0 && b.y + b.height <= 844 && b.x >= 0 && b.x + b.width <= 390, `${sel} at ${JSON.stringify(b)}`);
  };
  await inView('[data-testid=board]');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scroll');
  // A tap drops a disc.
  await page.tap(col(4)).catch(() => page.click(col(4)));
  await waitMoves(page, 1);
  await sameAsEngine(page, { mode: 'hardcore' }, max, '4');
  assert.match(page.url(), new RegExp(`seed=${max}&moves=4`));
  // An error (a forged record) shows in view, with the board.
  const forged = JSON.parse(readFileSync(cliRec, 'utf8'));
  forged.turns[0].column = forged.turns[0].column % 7 + 1;
  const bad = join(tmp, 'drop7-bad-phone.json');
  writeFileSync(bad, readFileSync(cliRec, 'utf8').replace(/"column": \d/, `"column": ${forged.turns[0].column}`));
  await page.setInputFiles('[data-testid=load]', bad);
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await inView('[data-testid=error]');
  await inView('[data-testid=board]');
  assert.match(await page.textContent('[data-testid=error]'), /^record: turn 1/);
  // The seed box takes a u64 and New game keeps every digit.
  await page.fill('[data-testid=seed]', '18446744073709551614');
  await page.click('[data-testid=new]');
  await waitMoves(page, 0);
  assert.match(page.url(), /seed=18446744073709551614/);
  await sameAsEngine(page, { mode: 'hardcore' }, '18446744073709551614', '');
  await page.close();
});
