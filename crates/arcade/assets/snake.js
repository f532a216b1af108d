// Snake: play with the arrows (one step a key), pick a player and watch it, see the route it
// plans, scrub the timeline, export and load records, share the URL.
import { post, postText, h, showError } from '/assets/app.js';
import { controller } from '/assets/timeline.js';

const DIRS = { ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R', w: 'U', s: 'D', a: 'L', d: 'R', W: 'U', S: 'D', A: 'L', D: 'R' };
const PLAYERS = ['shortest', 'astar', 'longest', 'lookahead', 'cycle', 'repair', 'tree', 'knit', 'dash'];
const SIZES = ['6x6', '8x8', '10x10', '12x12', '16x16', '20x20', '9x7'];
const STATUS = {
  Running: 'your move: arrows or WASD, one step a key',
  Won: 'won: the snake fills the board',
  Stalled: 'stopped: too many moves without eating',
  'Died(Wall)': 'crashed into the wall',
  'Died(Body)': 'ran into itself',
};

export async function mount(root, params) {
  const id = {
    size: SIZES.includes(params.size) ? params.size : '10x10',
    seed: /^\d+$/.test(params.seed || '') ? params.seed : String(Math.floor(Math.random() * 1e6)),
  };
  let dims = { w: 10, h: 10 };
  let start = [];
  let status = 'Running';
  const grid = h('div', { class: 'gsnake', testid: 'board', tabindex: 0, 'aria-label': 'Snake board' });
  let cells = [];

  const sizeIn = h('select', { testid: 'size', 'aria-label': 'board size' }, ...SIZES.map((s) => h('option', { value: s, selected: s === id.size }, s)));
  const seedIn = h('input', { type: 'number', min: 0, value: id.seed, testid: 'seed', 'aria-label': 'seed' });
  const playerIn = h('select', { testid: 'player', 'aria-label': 'player' }, ...PLAYERS.map((p) => h('option', { value: p, selected: p === (params.player || 'dash') }, p)));
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
  const crashed = (k) => k > 0 && k === ctl.st.moves.length && status.startsWith('Died');

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
    for (const c of cells) c.className = 'c';
    b.forEach((c, i) => { cells[c].className = i === 0 ? 'c head' : `c body${i % 2 ? ' alt' : ''}`; });
    if (frame.fruit !== null) cells[frame.fruit].className = 'c fruit';
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
    help: 'Arrows or WASD move one step; H shows the player\'s next move and planned route, Z/Y undo and redo, Space plays the timeline.',
    solverName: () => `${playerIn.value}`,
    urlParams: () => ({ size: id.size, seed: id.seed, player: playerIn.value }),
    async fetch(moves, all) {
      const r = await post('/api/snake/position', { ...where(), moves: moves.join(''), frames: all });
      layout(r.width, r.height);
      start = r.start;
      status = r.status;
      const now = { head: r.now.body[0], len: r.now.body.length, fruit: r.now.fruit, score: r.now.score };
      return { now, frames: r.frames, legal: r.legal, over: r.status !== 'Running', statusText: STATUS[r.status] || r.status };
    },
    draw,
    text,
    clear,
    autoUrl: (moves) => `/api/snake/auto?size=${id.size}&seed=${id.seed}&player=${playerIn.value}&moves=${moves.join('')}`,
    stream: { chunk: (c) => [...c.moves].map((m, i) => [m, c.frames[i]]) },
    doneText: (r) => `${r.player} played ${r.played.toLocaleString('en-US')} moves: ${STATUS[r.status] || r.status}, score ${r.score}; the record replays`,
    exportRecord: (moves) => postText('/api/snake/record', { ...where(), moves }),
    async loadRecord(text) {
      const r = await post('/api/snake/frames', `{"record": ${text}}`);
      if (!SIZES.includes(r.setup.size)) sizeIn.append(h('option', { value: r.setup.size }, r.setup.size));
      id.size = r.setup.size;
      id.seed = r.seed;
      sizeIn.value = id.size;
      seedIn.value = id.seed;
      if (PLAYERS.includes(r.player)) playerIn.value = r.player;
      return { moves: [...r.moves], message: `loaded a record of ${r.moves.length} moves by ${r.player || 'a player'}, score ${r.score}` };
    },
    keys: DIRS,
    async hint() {
      clear();
      hintBox.textContent = 'planning…';
      try {
        const r = await post('/api/snake/hint', { from: { ...where(), moves: ctl.moves().join('') }, player: playerIn.value });
        for (const c of r.route) cells[c].classList.add('route');
        hintBox.textContent = `${r.player} goes ${r.dir}; its route ${r.eats ? `reaches the fruit in ${r.route.length} moves` : `runs ${r.route.length} moves without eating`} (dotted)`;
        hintBox.dataset.dir = r.dir;
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

  root.append(h('div', {}, grid), ctl.panel);
  await ctl.start();
  return () => ctl.unmount();
}
