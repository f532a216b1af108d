// Tetris perfect clears in the browser: a field drawn with clicks and drags, a queue typed in,
// pieces placed by hand (placement buttons, the keys, the field itself), the solver's hint and
// its whole perfect clear played out, fumen in and out, records in and out and URLs, each
// checked against the engine (through the API from the test, not the page) or the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, cli, open, board, moves, waitMoves, exported, drag, autoDone, tmp, shots, sameAtLink } from '../lib.mjs';

const B = '[data-testid=board]';
const cell = (x, y) => `${B} .gt-field .c[data-x="${x}"][data-y="${y}"]`;
const legal = async (page) => (await page.getAttribute(B, 'data-legal')).split(/\s+/).filter(Boolean);
const engine = (setup, ms) => api('/api/tetris/position', { setup, seed: '1', moves: ms.join('-') });
const rowsOf = (text) => text.split('\n').filter((l) => /^[.#]{10}$/.test(l));
const FIELD = ['X.........', 'X.........', 'XXX...X...', 'XXX..XXX..'];
const FUMEN = 'v115@9gA8IeA8IeC8CeA8CeC8BeC8LeAgH'; // the same field
// A placement `[h]PFxy` read.
const parse = (m) => { const r = /^(h?)([IOTSZJL])([NESW])(\d)(\d)$/.exec(m || ''); return r && { m, hold: !!r[1], piece: r[2], facing: r[3], x: +r[4], y: +r[5] }; };
// The cells of a CLI or record step, sorted.
const cellsOf = (s) => s.cells.map((c) => c.join(',')).sort().join(' ');

async function center(page, sel) {
  const b = await page.locator(sel).boundingBox();
  return [b.x + b.width / 2, b.y + b.height / 2];
}

/** Drags over the cells from (x0, y0) to (x1, y1) in one stroke. */
async function stroke(page, [x0, y0], [x1, y1]) {
  const [ax, ay] = await center(page, cell(x0, y0));
  const [bx, by] = await center(page, cell(x1, y1));
  await page.mouse.move(ax, ay);
  await page.mouse.down();
  await page.mouse.move(bx, by, { steps: 8 });
  await page.mouse.up();
}

/** Aims the ghost at `m` with the keys only: C the other piece, up turns, left/right, down. */
async function steer(page, m) {
  const want = parse(m);
  for (let i = 0; i < 40; i++) {
    const g = parse(await page.getAttribute(B, 'data-ghost'));
    if (g.m === m) return;
    const key = g.hold !== want.hold ? 'c' : g.facing !== want.facing ? 'ArrowUp' : g.x > want.x ? 'ArrowLeft' : g.x < want.x ? 'ArrowRight' : 'ArrowDown';
    await page.keyboard.press(key);
  }
  throw new Error(`the keys did not aim at ${m} (ghost ${await page.getAttribute(B, 'data-ghost')})`);
}

test('tetris: a field drawn by clicks and drags, a queue typed in, pieces placed by hand to a perfect clear, undo/redo and a hint, each position the engine\'s', async () => {
  const { page, ready } = await open('#/tetris?seed=3');
  console.log(`tetris page interactive in ${ready} ms`);
  const setup = { queue: 'LJSZIOT', use_hold: true, kicks: 'srs+' };
  await page.fill('[data-testid=queue]', 'LJSZIOT');
  await page.press('[data-testid=queue]', 'Enter');
  await page.waitForFunction(() => /next JSZIOT$/.test(document.querySelector('[data-testid=board]').dataset.board));
  assert.equal(await board(page), (await engine(setup, [])).text.trimEnd());
  // Draw FIELD: two drags along the bottom row, one along the next, a click, a drag up column 0.
  await page.click('[data-testid=mode-draw]');
  await stroke(page, [0, 0], [2, 0]);
  await stroke(page, [5, 0], [7, 0]);
  await stroke(page, [0, 1], [2, 1]);
  await page.click(cell(6, 1));
  await stroke(page, [0, 2], [0, 3]);
  // A cell filled by mistake and emptied again (a click on a filled cell empties it).
  await page.click(cell(9, 3));
  await page.click(cell(9, 3));
  setup.field = FIELD.join('\n') + '\n';
  const want0 = (await engine(setup, [])).text.trimEnd();
  await page.waitForFunction((w) => {
    const b = document.querySelector('[data-testid=board]');
    return b.dataset.settled === 'true' && !b.dataset.draft && b.dataset.board === w;
  }, want0, { timeout: 10000 });
  assert.deepEqual(rowsOf(await board(page)), FIELD.map((r) => r.replace(/X/g, '#')));
  assert.equal(await page.getAttribute('[data-testid=draft]', 'data-error'), null);
  await page.click('[data-testid=mode-play]');

  // The solver's plan (from the API) placed by hand: buttons, keys, and the field by turns.
  const plan = (await api('/api/tetris/hint', { from: { setup, moves: '' }, search: {} })).detail.moves.split('-');
  const played = [];
  const placeByHand = async (m, how) => {
    assert.ok((await legal(page)).includes(m), `${m} is listed`);
    if (how === 0) {
      await page.click(`[data-testid=placement][data-move="${m}"]`);
    } else if (how === 1) {
      await page.focus(B);
      await steer(page, m);
      await page.keyboard.press('Enter');
    } else {
      // Turn the ghost with the keys, then hover the field until it sits on `m` and click.
      await page.focus(B);
      await steer(page, m);
      const p = parse(m);
      const cs = await page.evaluate((mv) => [...document.querySelectorAll('.gt-field .c.ghost')].map((c) => [c.dataset.x, c.dataset.y]), m);
      assert.equal(cs.length, 4, `the ghost of ${p.piece} covers four cells`);
      let aimed = false;
      for (const [x, y] of cs) {
        await page.hover(cell(x, y));
        if ((await page.getAttribute(B, 'data-ghost')) === m) { await page.click(cell(x, y)); aimed = true; break; }
      }
      assert.ok(aimed, `hovering a cell of ${m} aims at it`);
    }
    played.push(m);
    await waitMoves(page, played.length);
    assert.equal(await board(page), (await engine(setup, played)).text.trimEnd(), `after ${played.join('-')}`);
  };
  for (let i = 0; i < 3; i++) await placeByHand(plan[i], i % 3);
  // Undo with the key, redo with the button.
  await page.keyboard.press('z');
  await waitMoves(page, 2);
  assert.equal(await board(page), (await engine(setup, played.slice(0, 2))).text.trimEnd());
  await page.click('[data-testid=redo]');
  await waitMoves(page, 3);
  assert.equal(await board(page), (await engine(setup, played)).text.trimEnd());
  // The hint: a legal placement, shown as the ghost and dashed on the field, its keys listed.
  await page.focus(B);
  await page.keyboard.press('h');
  await page.waitForSelector('[data-testid=hint][data-move]', { timeout: 15000 });
  const hint = await page.getAttribute('[data-testid=hint]', 'data-move');
  assert.ok((await legal(page)).includes(hint), hint);
  assert.equal(await page.getAttribute(B, 'data-ghost'), hint);
  assert.equal(await page.locator('.gt-field .c.hintg').count(), 4);
  assert.ok(await page.locator('[data-testid=solution] li').count() >= 1);
  // The rest of the perfect clear by hand (the hint's plan from here).
  const rest = (await page.getAttribute('[data-testid=solution]', 'data-moves')).split('-');
  assert.equal(rest[0], hint);
  for (let i = 0; i < rest.length; i++) await placeByHand(rest[i], (i + 1) % 3);
  assert.match(await page.textContent('[data-testid=status]'), /perfect clear/);
  assert.ok(await page.isVisible('[data-testid=banner]'));
  assert.equal((await engine(setup, played)).status.phase, 'won');
  const file = await exported(page, 'tetris-hand.json');
  assert.match(cli('tetris', 'replay', file), /^ok: \d+ placements replay to an empty field/);
  await page.close();
});

test('tetris: Solve plays out the CLI\'s perfect clear with its keys and fumen; the record replays; the URL reproduces a placement', async () => {
  const { page } = await open('#/tetris?seed=5');
  const q = await page.inputValue('[data-testid=queue]');
  assert.match(q, /^[IOTSZJL]{11}$/, 'the seed draws an 11-piece opener queue');
  const setup = { queue: q };
  assert.equal(await board(page), (await engine(setup, [])).text.trimEnd());
  await page.selectOption('[data-testid=speed]', '60');
  await page.click('[data-testid=auto]');
  await autoDone(page, /the PC solver: .*perfect clear/, 60000);
  const want = JSON.parse(cli('tetris', 'pc', '--queue', q, '--json'));
  const n = want.steps.length;
  await waitMoves(page, n, 30000);
  assert.match(await page.textContent('[data-testid=status]'), /perfect clear/);
  const file = await exported(page, 'tetris-solved.json');
  const got = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(got.steps.map((s) => [s.piece, cellsOf(s), s.hold]), want.steps.map((s) => [s.piece, cellsOf(s), s.hold]));
  assert.match(cli('tetris', 'replay', file), /^ok: \d+ placements replay to an empty field/);
  // The page lists every placement with the keys of `pc --json` and gives its fumen.
  await page.waitForFunction((f) => document.querySelector('[data-testid=fumen-out]').value === f, want.fumen);
  const keys = await page.$$eval('[data-testid=solution] li', (lis) => lis.map((li) => li.dataset.keys.replace(/^HOLD /, '')));
  assert.deepEqual(keys, want.steps.map((s) => s.keys));
  assert.equal(await page.getAttribute('[data-testid=fumen-link]', 'href'), `https://knewjade.github.io/fumen-for-mobile/#?d=${want.fumen}`);
  // A placement in the middle: the engine's position, and the link shows it again.
  const half = Math.floor(n / 2);
  await drag(page, half);
  await waitMoves(page, half);
  const ms = (await page.getAttribute('[data-testid=solution]', 'data-moves')).split('-');
  assert.equal(await board(page), (await engine(setup, ms.slice(0, half))).text.trimEnd());
  assert.ok((await page.getAttribute('[data-testid=share]', 'href')).includes(`k=${half}`));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=placement]').length > 0);
  assert.equal(await page.getAttribute(B, 'data-ghost'), ms[half], 'the ghost sits on the plan\'s next placement');
  await page.mouse.move(0, 0);
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(shots, 'arcade-tetris.png') });
  await sameAtLink(page);
  await page.close();
});

test('tetris: a CLI record loads and scrubs; a forged one is refused with a one-line error', async () => {
  const file = join(tmp, 'tetris-cli.json');
  cli('tetris', 'pc', '--queue', 'TLJSZIOTS', '--hold', 'I', '--kicks', 'srs', '--record', file);
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  const setup = { field: rec.field, queue: rec.queue, hold: rec.hold, use_hold: rec.use_hold, kicks: rec.kicks };
  const { page } = await open('#/tetris?seed=1');
  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForFunction(() => /loaded a record of \d+ placements/.test(document.querySelector('[data-testid=auto-state]').textContent));
  assert.equal(await page.inputValue('[data-testid=kicks]'), 'srs');
  assert.equal(await page.inputValue('[data-testid=hold]'), 'I');
  const n = rec.steps.length;
  const ms = (await api('/api/tetris/frames', { record: rec })).moves.split('-');
  assert.equal(ms.length, n);
  for (const k of [0, Math.floor(n / 3), n - 1, n]) {
    await drag(page, k);
    await waitMoves(page, k);
    assert.equal(await board(page), (await engine(setup, ms.slice(0, k))).text.trimEnd(), `placement ${k}`);
  }
  assert.match(await page.textContent('[data-testid=status]'), /perfect clear/);
  await sameAtLink(page);
  // Step back through it with the buttons.
  await page.click('[data-testid=step-back]');
  await waitMoves(page, n - 1);
  assert.equal(await moves(page), n - 1);
  // A step moved one column: refused, and the page keeps the game it had.
  rec.steps[2].cells = rec.steps[2].cells.map(([x, y]) => [x + 1, y]);
  const bad = join(tmp, 'tetris-bad.json');
  writeFileSync(bad, JSON.stringify(rec));
  await page.setInputFiles('[data-testid=load]', bad);
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  const err = await page.textContent('[data-testid=error]');
  assert.match(err, /^record: step \d+: /);
  assert.ok(!err.includes('\n'), 'one line');
  assert.equal(await moves(page), n - 1);
  await page.close();
});

test('tetris: a fumen loads its field, the fumen link round-trips, and a phone shows the field and the error box', async () => {
  const { page } = await open('#/tetris?queue=LJSZIOT');
  await page.fill('[data-testid=fumen-in]', `https://knewjade.github.io/fumen-for-mobile/#?d=${FUMEN}`);
  await page.press('[data-testid=fumen-in]', 'Enter');
  await page.waitForFunction(() => /#\.{9}\n#\.{9}\n###/.test(document.querySelector('[data-testid=board]').dataset.board));
  const setup = { fumen: FUMEN, queue: 'LJSZIOT' };
  const start = await engine(setup, []);
  assert.equal(await board(page), start.text.trimEnd());
  assert.deepEqual(rowsOf(await board(page)), FIELD.map((r) => r.replace(/X/g, '#')));
  // The field's fumen out, and back in through the engine.
  const href = await page.getAttribute('[data-testid=fumen-link]', 'href');
  const d = decodeURIComponent(href.split('#?d=')[1]);
  assert.equal(d, start.now.fumen);
  assert.equal(await page.inputValue('[data-testid=fumen-out]'), d);
  assert.equal((await engine({ fumen: d, queue: 'LJSZIOT' }, [])).text, start.text);
  // The hint's solution fumen is `pc --fumen`'s.
  await page.click('[data-testid=hint-button]');
  await page.waitForSelector('[data-testid=hint][data-move]', { timeout: 15000 });
  const want = JSON.parse(cli('tetris', 'pc', '--queue', 'LJSZIOT', '--fumen', FUMEN, '--json'));
  assert.equal(await page.inputValue('[data-testid=fumen-out]'), want.fumen);
  assert.ok((await page.getAttribute('[data-testid=fumen-link]', 'href')).endsWith(want.fumen));
  // The URL keeps the field, so a new page shows it.
  await sameAtLink(page);
  await page.close();

  const phone = (await open('#/tetris?seed=2', { width: 390, height: 844 })).page;
  const field = await phone.locator(`${B} .gt-field`).boundingBox();
  const whole = await phone.locator(B).boundingBox();
  assert.ok(whole.x >= 0 && whole.x + whole.width <= 390, `the board fits the width: ${JSON.stringify(whole)}`);
  assert.ok(field.y + field.height <= 844, 'the field is in the first screen');
  assert.ok(field.width / 10 >= 16, `cells of ${field.width / 10} px`);
  await phone.fill('[data-testid=queue]', 'IOTQ');
  await phone.press('[data-testid=queue]', 'Enter');
  await phone.waitForSelector('[data-testid=error]:not([hidden])');
  const box = await phone.locator('[data-testid=error]').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 844 && box.x >= 0 && box.x + box.width <= 390, `the error box is in view where the queue was typed: ${JSON.stringify(box)}`);
  assert.match(await phone.textContent('[data-testid=error]'), /^setup\.queue: /);
  // At the top of the page: the error box, then the field, both in view.
  await phone.evaluate(() => window.scrollTo(0, 0));
  const [e2, f2] = [await phone.locator('[data-testid=error]').boundingBox(), await phone.locator(`${B} .gt-field`).boundingBox()];
  assert.ok(e2.y >= 0 && e2.y + e2.height <= f2.y && f2.y + f2.height <= 844, `error ${JSON.stringify(e2)} above field ${JSON.stringify(f2)}`);
  await phone.screenshot({ path: join(tmp, 'tetris-phone.png') });
  await phone.close();
});
