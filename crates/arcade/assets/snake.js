// Snake: play with the arrows (one step a key), pick a player and watch it, see the route it
// plans, scrub the timeline, export and load records, share the URL.
import { post, postText, h, showError, swipe, linkParam } from '/assets/app.js';
import { controller } from '/assets/timeline.js';
import { bitsSnake } from '/assets/bits.js';

const DIRS = { ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R', w: 'U', s: 'D', a: 'L', d: 'R', W: 'U', S: 'D', A: 'L', D: 'R' };
const PLAYERS = ['shortest', 'astar', 'longest', 'lookahead', 'cycle', 'repair', 'tree', 'knit', 'dash'];
const SIZES = ['6x6', '8x8', '10x10', '12x12', '16x16', '20x20', '9x7'];
const YOUR_MOVE = 'your move: arrows or WASD, one step a key';
const statusText = (st) => (st.phase === 'playing' ? YOUR_MOVE : st.phase === 'won' ? `won: ${st.message}` : st.message);

export async function mount(root, params) {
  const notes = [];
  const id = {
    size: linkParam(params, notes, 'size', (v) => (SIZES.includes(v) ? v : undefined), '10x10', `one of the sizes ${SIZES.join(', ')}`),
    seed: linkParam(params, notes, 'seed', (v) => (/^\d{1,20}$/.test(v) && BigInt(v) < 2n ** 64n ? v : undefined), String(Math.floor(Math.random() * 1e6)), 'a seed from 0 to 2^64-1'),
  };
  const player = linkParam(params, notes, 'player', (v) => (PLAYERS.includes(v) ? v : undefined), 'dash', `a player (${PLAYERS.join(', ')})`);
  let dims = { w: 10, h: 10 };
  let start = [];
  let status = { phase: 'playing', code: 'playing', message: '' };
  const grid = h('div', { class: 'gsnake', testid: 'board', tabindex: 0, role: 'grid', 'aria-label': 'Snake board' });
  let cells = [];

  const sizeIn = h('select', { testid: 'size', 'aria-label': 'board size' }, ...SIZES.map((s) => h('option', { value: s, selected: s === id.size }, s)));
  const seedIn = h('input', { type: 'number', min: 0, value: id.seed, testid: 'seed', 'aria-label': 'seed' });
  const playerIn = h('select', { testid: 'player', 'aria-label': 'player' }, ...PLAYERS.map((p) => h('option', { value: p, selected: p === player }, p)));
  const hintBox = h('div', { class: 'muted', testid: 'hint' });
  const length = h('b', { testid: 'length' }, '1');
  const where = () => ({ setup: { size: id.size }, seed: id.seed });

  function layout(w, hh) {
    if (dims.w === w && dims.h === hh && cells.length) return;
    dims = { w, h: hh };
    grid.style.setProperty('--w', w);
    grid.style.setProperty('--h', hh);
    cells = Array.from({ length: w * hh }, () => h('div', { class: 'c' }));
    grid.replaceChildren(...cells);
  }

  // The body after move k: the last `len` heads, the start body before the first.
  function body(k) {
    const f = ctl.st.frames;
    const out = [];
    for (let j = k; out.length < f[k].len; j--) out.push(j >= 0 ? f[j].head : start[-j]);
    return out;
  }
  // A crash leaves the board as it was: its frame is drawn from the move before, marked.
  const crashed = (k) => k > 0 && k === ctl.st.moves.length && status.code.startsWith('died');

  function text(frame, k) {
    const b = body(crashed(k) ? k - 1 : k);
    const g = Array(dims.w * dims.h).fill('.');
    if (frame.fruit !== null) g[frame.fruit] = '*';
    g[b[0]] = 'H';
    for (let i = 1; i < b.length; i++) {
      const d = b[i - 1] - b[i];
      g[b[i]] = d === -dims.w ? '^' : d === dims.w ? 'v' : d === 1 ? '>' : '<';
    }
    const rows = [];
    for (let y = 0; y < dims.h; y++) rows.push(g.slice(y * dims.w, (y + 1) * dims.w).join(''));
    return rows.join('\n');
  }

  function draw(frame, k) {
    const b = body(crashed(k) ? k - 1 : k);
    for (const c of cells) { c.className = 'c'; c.style.background = ''; }
    // The body drawn connected, head to tail, its shade fading toward the tail so a full board
    // can still be traced.
    const dir = (from, to) => (to === from - dims.w ? 'u' : to === from + dims.w ? 'd' : to === from + 1 ? 'r' : 'l');
    b.forEach((c, i) => {
      const link = i + 1 < b.length ? ` to-${dir(c, b[i + 1])}` : '';
      cells[c].className = (i === 0 ? 'c head' : 'c body') + link;
      if (i > 0) cells[c].style.background = `hsl(163, 100%, ${24 + Math.round(26 * i / Math.max(1, b.length - 1))}%)`;
    });
    if (frame.fruit !== null) cells[frame.fruit].className = 'c fruit';
    // The cells that matter, named for a screen reader: the head, the fruit.
    grid.setAttribute('aria-label', `Snake board, ${dims.w} by ${dims.h}: head at column ${b[0] % dims.w + 1}, row ${Math.floor(b[0] / dims.w) + 1}`
      + (frame.fruit !== null ? `; fruit at column ${frame.fruit % dims.w + 1}, row ${Math.floor(frame.fruit / dims.w) + 1}` : '') + `; length ${b.length}`);
    if (crashed(k)) cells[b[0]].classList.add('crash');
    length.textContent = frame.len;
  }

  function clear() {
    hintBox.replaceChildren();
    delete hintBox.dataset.dir;
    for (const c of cells) c.classList.remove('route');
  }

  const g = {
    name: 'snake',
    linkNotes: notes,
    title: 'Snake',
    board: grid,
    sep: '',
    stats: [['length', length]],
    setup: [
      h('div', { class: 'row' }, h('label', {}, 'size ', sizeIn), h('label', {}, 'seed ', seedIn)),
      h('div', { class: 'row' },
        h('button', { class: 'primary', testid: 'new', onclick: () => newGame(seedIn.value) }, 'New game'),
        h('button', { testid: 'random', onclick: () => newGame(String(Math.floor(Math.random() * 1e6))) }, 'Random seed')),
    ],
    extras: [hintBox],
    autoControls: [playerIn],
    help: 'Arrows or WASD move one step; H shows the player\'s next move and planned route, B the bits (the body\'s bitset, and the cells BFS and A* each search), Z/Y undo and redo, Space plays the timeline.',
    solverName: () => `${playerIn.value}`,
    urlParams: () => ({ size: id.size, seed: id.seed, player: playerIn.value }),
    async fetch(moves, all) {
      const r = await post('/api/snake/position', { ...where(), moves: moves.join(''), frames: all });
      layout(r.now.width, r.now.height);
      start = r.now.start;
      status = r.status;
      const now = { head: r.now.body[0], len: r.now.body.length, fruit: r.now.fruit, score: r.now.score };
      return { now, frames: r.frames, legal: r.legal, over: r.status.phase !== 'playing', won: r.status.phase === 'won', statusText: statusText(r.status) };
    },
    draw,
    text,
    clear,
    autoUrl: (moves) => `/api/snake/auto?r=${encodeURIComponent(JSON.stringify({ from: { ...where(), moves: moves.join('') }, search: { player: playerIn.value } }))}`,
    stream: { steps: (d) => d.steps.map((s) => [s.move, s.frame]) },
    doneText: (r) => `${playerIn.value} played ${r.played.toLocaleString('en-US')} moves: ${statusText(r.status)}, score ${r.score}; the record replays`,
    exportRecord: (moves) => postText('/api/snake/record', { ...where(), moves }),
    async loadRecord(text) {
      const r = await post('/api/snake/frames', `{"record": ${text}}`);
      const rec = JSON.parse(text);
      const player = (Array.isArray(rec) ? rec[0] : rec).player;
      if (!SIZES.includes(r.setup.size)) sizeIn.append(h('option', { value: r.setup.size }, r.setup.size));
      id.size = r.setup.size;
      id.seed = r.seed;
      sizeIn.value = id.size;
      seedIn.value = id.seed;
      if (PLAYERS.includes(player)) playerIn.value = player;
      const of = r.count > 1 ? ` (the first of ${r.count} records)` : '';
      return { moves: [...r.moves], message: `loaded a record of ${r.moves.length} moves by ${player || 'a player'}${of}, score ${r.score}` };
    },
    keys: DIRS,
    async bitsOf(moves) {
      const r = await post('/api/snake/position', { ...where(), moves: moves.join('') });
      return bitsSnake(r.now);
    },
    async hint() {
      clear();
      hintBox.textContent = 'planning…';
      try {
        const r = await post('/api/snake/hint', { from: { ...where(), moves: ctl.moves().join('') }, search: { player: playerIn.value } });
        const d = r.detail;
        for (const c of d.route) cells[c].classList.add('route');
        hintBox.textContent = `${r.solver} goes ${r.move}; its route ${d.eats ? `reaches the fruit in ${d.route.length} moves` : `runs ${d.route.length} moves without eating`} (dotted)`;
        hintBox.dataset.dir = r.move;
      } catch (e) {
        hintBox.textContent = '';
        showError(e.message);
      }
    },
  };
  const ctl = controller(params, g);

  function newGame(seed) {
    id.size = sizeIn.value;
    id.seed = /^\d+$/.test(String(seed)) ? String(seed) : '0';
    seedIn.value = id.seed;
    ctl.reset();
  }
  sizeIn.addEventListener('change', () => newGame(seedIn.value));
  seedIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') newGame(seedIn.value); });
  playerIn.addEventListener('change', () => ctl.goto(ctl.st.k));

  // On a touch screen: swipe on the board, or the arrow pad under it.
  swipe(grid, (d) => ctl.move(d));
  const pad = h('div', { class: 'pad', testid: 'pad', 'aria-label': 'arrow pad' },
    ...[['U', '↑'], ['L', '←'], ['D', '↓'], ['R', '→']].map(([m, t]) =>
      h('button', { testid: `pad-${m}`, class: `pad-${m}`, 'aria-label': `move ${t}`, onclick: () => ctl.move(m) }, t)));

  root.append(h('div', {}, grid, pad), ctl.panel);
  await ctl.start();
  return () => ctl.unmount();
}
