// 2048: play with arrows/WASD/swipe, ask the expectimax for a hint, let it play on (a
// server-sent stream of its moves), scrub the timeline, export and load records, share the URL.
import { post, postText, showError, h, swipe, linkParam } from '/assets/app.js';
import { controller } from '/assets/timeline.js';
import { bits2048 } from '/assets/bits.js';

const DIRS = { ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R', w: 'U', s: 'D', a: 'L', d: 'R', W: 'U', S: 'D', A: 'L', D: 'R' };
const NAMES = { U: 'up ↑', D: 'down ↓', L: 'left ←', R: 'right →' };

export async function mount(root, params) {
  const notes = [];
  const seedText = (v) => (/^\d{1,20}$/.test(v) && BigInt(v) < 2n ** 64n ? v : undefined);
  const id = {
    // Seeds are kept as text: past 2^53 a browser's numbers lose digits (the server reads
    // strings).
    seed: linkParam(params, notes, 'seed', seedText, String(Math.floor(Math.random() * 1e6)), 'a seed from 0 to 2^64-1'),
    spawn: linkParam(params, notes, 'spawn', seedText, null, 'a spawn seed from 0 to 2^64-1'), // a record's spawn seed, kept as text (u64)
  };
  const grid = h('div', { class: 'g2048', testid: 'board', tabindex: 0, role: 'grid', 'aria-label': '2048 board' });
  const cells = Array.from({ length: 16 }, () => h('div', { class: 't', role: 'gridcell' }));
  grid.append(...cells);
  const seedIn = h('input', { type: 'number', min: 0, value: id.seed, testid: 'seed', 'aria-label': 'seed' });
  const budget = h('select', { testid: 'budget', 'aria-label': 'search budget' },
    ...[['20000', 'quick (20k nodes)'], ['100000', 'fast (100k)'], ['500000', 'standard (500k)'], ['2000000', 'strong (2M)']]
      .map(([v, t]) => h('option', { value: v, selected: v === '100000' }, t)));
  const hintBox = h('div', { class: 'hint', testid: 'hint' });
  const where = () => (id.spawn !== null ? { setup: { spawn_seed: String(id.spawn) }, seed: '0' } : { seed: id.seed });
  const frame = (s) => ({ tiles: s.tiles, score: s.score, board: s.board });
  const statusText = (st) => (st.phase === 'playing' ? 'your move' : st.code === 'no_moves' ? 'game over: no move is legal' : `ended: ${st.message}`);

  const g = {
    name: '2048',
    linkNotes: notes,
    title: '2048',
    board: grid,
    sep: '',
    setup: [h('div', { class: 'row' }, h('label', {}, 'seed ', seedIn),
      h('button', { class: 'primary', testid: 'new', onclick: () => newGame(seedIn.value) }, 'New game'),
      h('button', { testid: 'random', onclick: () => newGame(String(Math.floor(Math.random() * 1e6))) }, 'Random seed'))],
    extras: [hintBox],
    autoControls: [budget],
    help: 'Arrows or WASD move (swipe on a touch screen); H hints, B shows the bits (the board as the engine\'s u64), Z/Y undo and redo, Space plays the timeline.',
    solverName: () => 'the expectimax',
    urlParams: () => (id.spawn !== null ? { spawn: id.spawn } : { seed: id.seed }),
    async fetch(moves, all) {
      const r = await post('/api/2048/position', { ...where(), moves: moves.join(''), frames: all });
      return {
        now: frame(r.now),
        frames: all ? r.frames.map(frame) : undefined,
        legal: r.legal,
        over: r.status.phase !== 'playing', won: r.status.phase === 'won',
        statusText: statusText(r.status),
      };
    },
    draw(f) {
      f.tiles.forEach((v, i) => {
        const c = cells[i];
        const was = Number(c.dataset.v || 0);
        c.dataset.v = v;
        c.textContent = v ? v : '';
        c.setAttribute('aria-label', `row ${Math.floor(i / 4) + 1}, column ${i % 4 + 1}: ${v || 'empty'}`);
        c.className = 't' + (v > 2048 ? ' big' : '') + (v >= 100 ? ` d${String(v).length}` : '') + (v && !was ? ' new' : '');
      });
    },
    text: (f) => f.board,
    clear: () => { hintBox.replaceChildren(); delete hintBox.dataset.best; },
    autoUrl: (moves) => `/api/2048/auto?r=${encodeURIComponent(JSON.stringify({ from: { ...where(), moves: moves.join('') }, search: { budget: Number(budget.value) } }))}`,
    stream: { steps: (d) => d.steps.map((s) => [s.move, frame(s.frame)]) },
    doneText: (r) => `played ${r.played} moves; the record replays`,
    exportRecord: (moves) => postText('/api/2048/record', { ...where(), moves }),
    async loadRecord(text) {
      // The record goes to the server as written: its seed may not fit a browser number.
      const f = await post('/api/2048/frames', `{"record": ${text}}`);
      id.spawn = f.setup.spawn_seed;
      // The record's game has its own spawn seed, not a batch seed: the seed box says so.
      seedIn.value = '';
      seedIn.placeholder = 'a record';
      const of = f.count > 1 ? ` (the first of ${f.count} records)` : '';
      return { moves: [...f.moves], message: `loaded a record of ${f.moves.length} moves${of}, score ${f.score.toLocaleString('en-US')}` };
    },
    keys: DIRS,
    async bitsOf(moves) {
      const r = await post('/api/2048/position', { ...where(), moves: moves.join('') });
      return bits2048(r.now.bits);
    },
    async hint() {
      hintBox.replaceChildren(h('span', { class: 'muted' }, 'searching…'));
      try {
        const r = await post('/api/2048/hint', { from: { ...where(), moves: ctl.moves().join('') }, search: { budget: Number(budget.value) } });
        hintBox.replaceChildren(...r.values.flatMap((v) => [
          h('span', { class: v.move === r.move ? 'best' : '' }, NAMES[v.move]),
          h('span', { class: v.move === r.move ? 'best' : '', 'data-dir': v.move }, Math.round(v.value).toLocaleString('en-US')),
          h('span', { class: 'muted' }, v.move === r.move ? `best, depth ${r.detail.depth}` : ''),
        ]), h('span', { class: 'muted', testid: 'hint-nodes' }, `${r.detail.nodes.toLocaleString('en-US')} nodes`));
        hintBox.dataset.best = r.move || '';
      } catch (e) {
        hintBox.replaceChildren();
        showError(e.message);
      }
    },
  };
  const ctl = controller(params, g);

  function newGame(seed) {
    id.seed = /^\d{1,20}$/.test(String(seed)) ? String(seed) : '0';
    id.spawn = null;
    seedIn.value = id.seed;
    ctl.reset();
  }
  seedIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') newGame(seedIn.value); });
  swipe(grid, (d) => ctl.move(d), 30);

  root.append(h('div', {}, grid), ctl.panel);
  await ctl.start();
  return () => ctl.unmount();
}
