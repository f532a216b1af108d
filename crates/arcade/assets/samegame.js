// SameGame: click a group (hover shows it and its points), undo/redo, ask the solver for its
// next click, let it solve the whole game and play the plan out, scrub the timeline, export
// and load records, share the URL.
import { post, postText, h, showError, linkParam } from '/assets/app.js';
import { controller } from '/assets/timeline.js';
import { bitsSameGame } from '/assets/bits.js';

const SIZES = ['10x10', '15x15', '20x10', '20x15', '30x20'];
const SYMBOLS = ['●', '▲', '■', '◆', '★', '✚', '✖', '♥'];
const NAMES = ['orange', 'sky blue', 'green', 'yellow', 'blue', 'vermillion', 'purple', 'grey'];
const DEFAULT_RULES = { points: '(n-2)^2', clear_bonus: 1000, min_group: 2 };
// The score goal's beam scores its leaves by rollouts (about 3 s for width 30 on 15x15); the
// clear goal's is cheap, so its widths are wider.
const WIDTHS = {
  score: [['10', 'quick (width 10)'], ['30', 'good (width 30)'], ['100', 'strong (width 100)']],
  clear: [['1000', 'quick (width 1,000)'], ['5000', 'good (width 5,000)'], ['20000', 'strong (width 20,000)']],
};
const SEARCHES = [['beam', 'beam'], ['nrpa', 'NRPA'], ['beam-nrpa', 'beam, then NRPA']];
const SYM_KEY = 'bitarcade.samegame.symbols';

const digits = (s) => /^\d+$/.test(s || '');

export async function mount(root, params) {
  const notes = [];
  const wh = params.w === undefined && params.h === undefined ? {} : { size: `${params.w}x${params.h}` };
  const size = linkParam(wh, notes, 'size', (v) => (SIZES.includes(v) ? v : undefined), '15x15', `one of the sizes ${SIZES.join(', ')} (w and h)`);
  const id = {
    size,
    colors: linkParam(params, notes, 'c', (v) => (/^[2-8]$/.test(v) ? v : undefined), '5', 'a number of colours from 2 to 8'),
    seed: linkParam(params, notes, 'seed', (v) => (/^\d{1,20}$/.test(v) && BigInt(v) < 2n ** 64n ? v : undefined), String(Math.floor(Math.random() * 1e6)), 'a seed from 0 to 2^64-1'),
    // A board given as text (a record's, or a link's): rows top first, '/' between them.
    board: linkParam(params, notes, 'board', (v) => (/^[0-7./]+$/.test(v) ? v : undefined), null, 'a board (digits 0-7 and ., rows between /)'),
    rules: {
      points: params.points || DEFAULT_RULES.points,
      clear_bonus: linkParam(params, notes, 'bonus', (v) => (/^-?\d{1,10}$/.test(v) && Math.abs(Number(v)) <= 1e9 ? Number(v) : undefined), DEFAULT_RULES.clear_bonus, 'a clear bonus from -1,000,000,000 to 1,000,000,000'),
      min_group: linkParam(params, notes, 'min', (v) => (/^[2-9]$/.test(v) ? Number(v) : undefined), DEFAULT_RULES.min_group, 'a smallest group from 2 to 9'),
    },
  };
  let dims = { w: 0, h: 0 };
  let cells = [];
  let shown = null; // the frame on screen
  let hover = null; // the cell under the pointer or the keyboard cursor
  let cursor = null;

  const grid = h('div', { class: 'gsame', testid: 'board', tabindex: 0, role: 'grid', 'aria-label': 'SameGame board: arrows move the cursor, Enter removes its group' });
  const sizeIn = h('select', { testid: 'size', 'aria-label': 'board size' }, ...SIZES.map((s) => h('option', { value: s, selected: s === id.size }, s)));
  const colorsIn = h('select', { testid: 'colors', 'aria-label': 'colours' }, ...[2, 3, 4, 5, 6, 7, 8].map((c) => h('option', { value: c, selected: String(c) === id.colors }, `${c} colours`)));
  const seedIn = h('input', { type: 'number', min: 0, value: id.seed, testid: 'seed', 'aria-label': 'seed' });
  const symbolsIn = h('input', { type: 'checkbox', testid: 'symbols', id: 'samegame-symbols', checked: localStorage.getItem(SYM_KEY) === '1' });
  const goalIn = h('select', { testid: 'goal', 'aria-label': 'goal' }, h('option', { value: 'score' }, 'most points'), h('option', { value: 'clear' }, 'clear the board'));
  const searchIn = h('select', { testid: 'search', 'aria-label': 'search' }, ...SEARCHES.map(([v, t]) => h('option', { value: v }, t)));
  const widthIn = h('select', { testid: 'width', 'aria-label': 'beam width' });
  const widths = () => {
    const at = Math.max(0, widthIn.selectedIndex);
    widthIn.replaceChildren(...WIDTHS[goalIn.value].map(([v, t]) => h('option', { value: v }, t)));
    widthIn.selectedIndex = widthIn.options.length ? (widthIn.dataset.set ? at : 1) : 0;
    widthIn.dataset.set = '1';
  };
  widths();
  const hoverBox = h('div', { class: 'muted', testid: 'group' }, 'hover a group to see its points');
  const hintBox = h('div', { class: 'muted', testid: 'hint' });
  const tiles = h('b', { testid: 'tiles' }, '0');

  const where = () => (id.board
    ? { setup: { board: id.board.split('/').join('\n'), rules: id.rules }, seed: '0' }
    : { setup: { width: Number(id.size.split('x')[0]), height: Number(id.size.split('x')[1]), colors: Number(id.colors), rules: id.rules }, seed: id.seed });
  const searchOpts = () => ({ goal: goalIn.value, search: searchIn.value, width: Number(widthIn.value) });
  const token = (i) => `${i % dims.w}.${dims.h - 1 - Math.floor(i / dims.w)}`;
  const index = (x, y) => (dims.h - 1 - y) * dims.w + x;

  function layout(w, hh) {
    if (dims.w === w && dims.h === hh && cells.length) return;
    dims = { w, h: hh };
    grid.style.setProperty('--w', w);
    grid.style.setProperty('--h', hh);
    cells = Array.from({ length: w * hh }, (_, i) => {
      const [x, y] = token(i).split('.');
      return h('div', { class: 'c', 'data-x': x, 'data-y': y });
    });
    grid.replaceChildren(...cells);
  }

  // Marks the group under `i` (hover or cursor) and says what it scores.
  function mark(i) {
    hover = i;
    for (const c of cells) c.classList.remove('hl');
    if (!shown || i === null) { hoverBox.textContent = 'hover a group to see its points'; return; }
    const label = shown.cells[i];
    if (!label) {
      hoverBox.textContent = shown.board.replace(/\n/g, '')[i] === '.' ? 'an empty cell' : 'a single tile: no group to remove';
      return;
    }
    shown.cells.forEach((l, j) => { if (l === label) cells[j].classList.add('hl'); });
    const gr = shown.groups[label - 1];
    hoverBox.textContent = `${gr.size} ${NAMES[gr.color]} tiles: +${gr.points.toLocaleString('en-US')} points`;
    hoverBox.dataset.size = gr.size;
    hoverBox.dataset.points = gr.points;
  }

  function draw(frame) {
    shown = frame;
    const flat = frame.board.replace(/\n/g, '');
    flat.split('').forEach((ch, i) => {
      const c = cells[i];
      c.className = ch === '.' ? 'c e' : `c k${ch}`;
      c.dataset.sym = ch === '.' ? '' : SYMBOLS[Number(ch)];
      c.setAttribute('role', 'gridcell');
      c.setAttribute('aria-label', ch === '.' ? 'empty' : `${NAMES[Number(ch)]} ${SYMBOLS[Number(ch)]}`);
    });
    if (frame.click) cells[index(frame.click[0], frame.click[1])]?.classList.add('last');
    if (cursor !== null) cells[cursor].classList.add('cur');
    tiles.textContent = frame.tiles_left;
    mark(hover);
  }

  function clear() {
    hintBox.replaceChildren();
    delete hintBox.dataset.click;
    for (const c of cells) c.classList.remove('hint');
  }

  const statusText = (r) => {
    if (r.status.code === 'cleared') return `cleared: the board is empty (+${id.rules.clear_bonus.toLocaleString('en-US')} bonus)`;
    if (r.status.phase === 'over') return `game over: no group left, ${r.now.tiles_left} tiles stay`;
    return `your click: any group of ${id.rules.min_group} or more`;
  };

  const g = {
    name: 'samegame',
    linkNotes: notes,
    title: 'SameGame',
    board: grid,
    sep: '-',
    stats: [['tiles', tiles]],
    setup: [
      h('div', { class: 'row' }, h('label', {}, 'size ', sizeIn), colorsIn, h('label', {}, 'seed ', seedIn)),
      h('div', { class: 'row' },
        h('button', { class: 'primary', testid: 'new', onclick: () => newGame(seedIn.value) }, 'New game'),
        h('button', { testid: 'random', onclick: () => newGame(String(Math.floor(Math.random() * 1e6))) }, 'Random seed'),
        h('label', { for: symbolsIn.id, class: 'muted' }, symbolsIn, ' symbols')),
    ],
    extras: [hoverBox, hintBox],
    autoLabel: 'Solve',
    autoControls: [goalIn, searchIn, widthIn],
    playOut: true,
    help: 'Click a group of two or more to remove it (or move the cursor with the arrows, Enter removes its group); H shows the solver\'s next click, B the bits (the engine\'s bitplanes), Z/Y undo and redo, Space plays the timeline. Solve plans the whole game and plays it out.',
    async bitsOf(moves) {
      const r = await post('/api/samegame/position', { ...where(), moves: moves.join('-') });
      return bitsSameGame(r.now.bits, r.now.board.split('\n').filter(Boolean).length);
    },
    solverName: () => (searchIn.value === 'beam' ? `the beam (width ${Number(widthIn.value).toLocaleString('en-US')})` : searchIn.selectedOptions[0].textContent),
    urlParams: () => {
      const p = id.board ? { board: id.board } : { w: id.size.split('x')[0], h: id.size.split('x')[1], c: id.colors, seed: id.seed };
      if (id.rules.points !== DEFAULT_RULES.points) p.points = id.rules.points;
      if (id.rules.clear_bonus !== DEFAULT_RULES.clear_bonus) p.bonus = id.rules.clear_bonus;
      if (id.rules.min_group !== DEFAULT_RULES.min_group) p.min = id.rules.min_group;
      return p;
    },
    async fetch(moves, all) {
      const r = await post('/api/samegame/position', { ...where(), moves: moves.join('-'), frames: all });
      const rows = r.now.board.trimEnd().split('\n');
      layout(rows[0].length, rows.length);
      const legal = [];
      r.now.cells.forEach((l, i) => { if (l) legal.push(token(i)); });
      return { now: r.now, frames: all ? r.frames : undefined, legal, over: r.status.phase !== 'playing', won: r.status.phase === 'won', statusText: statusText(r) };
    },
    draw,
    text: (frame) => frame.board.trimEnd(),
    clear,
    autoUrl(moves) {
      const r = { from: { ...where(), moves: moves.join('-') }, search: searchOpts() };
      return `/api/samegame/auto?seconds=300&r=${encodeURIComponent(JSON.stringify(r))}`;
    },
    stream: { steps: (d) => d.steps.map((s) => [s.move, s.frame]) },
    doneText: (r) => `${g.solverName()}: ${r.played} clicks to ${r.score.toLocaleString('en-US')} points, ${r.status.code === 'cleared' ? 'the board cleared' : r.status.message}${r.stop === 'aborted' ? ' (stopped)' : ''}; checked, playing it out`,
    exportRecord: (moves) => postText('/api/samegame/record', { ...where(), moves }),
    async loadRecord(text) {
      const r = await post('/api/samegame/frames', `{"record": ${text}}`);
      id.board = r.setup.board.trimEnd().split('\n').join('/');
      id.rules = r.setup.rules;
      const moves = r.moves.split('-').filter(Boolean);
      const of = r.count > 1 ? ` (the first of ${r.count} records)` : '';
      return { moves, message: `loaded a record of ${moves.length} clicks${of}, score ${r.score.toLocaleString('en-US')}` };
    },
    key(e) {
      const k = e.key;
      const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[k];
      if (!d && k !== 'Enter') return false;
      if (!cells.length) return true;
      if (cursor === null) cursor = index(0, 0);
      if (d) {
        const [x, y] = token(cursor).split('.').map(Number);
        const nx = Math.min(dims.w - 1, Math.max(0, x + d[0]));
        const ny = Math.min(dims.h - 1, Math.max(0, y + d[1]));
        for (const c of cells) c.classList.remove('cur');
        cursor = index(nx, ny);
        cells[cursor].classList.add('cur');
        mark(cursor);
      } else {
        ctl.move(token(cursor));
      }
      return true;
    },
    async hint() {
      clear();
      hintBox.textContent = 'solving the rest of the game…';
      try {
        const h0 = await post('/api/samegame/hint', { from: { ...where(), moves: ctl.moves().join('-') }, search: searchOpts() });
        const r = h0.detail;
        const [x, y] = r.moves[0];
        const label = shown.cells[index(x, y)];
        shown.cells.forEach((l, j) => { if (l === label) cells[j].classList.add('hint'); });
        const first = r.frames[0];
        hintBox.textContent = `the solver's next click removes ${first.removed} tiles for +${first.points.toLocaleString('en-US')} (outlined); its plan: ${r.moves.length} clicks to ${r.score.toLocaleString('en-US')} points, ${r.cleared ? 'the board cleared' : `${r.tiles_left} tiles left`}${r.stopped ? ' (the hint\'s time ran out: the best game it had finished)' : ''}`;
        hintBox.dataset.click = `${x}.${y}`;
      } catch (e) {
        hintBox.textContent = '';
        showError(e.message);
      }
    },
  };
  const ctl = controller(params, g);

  grid.addEventListener('click', (e) => {
    const c = e.target.closest('.c');
    if (!c) return;
    cursor = null;
    ctl.move(`${c.dataset.x}.${c.dataset.y}`);
  });
  grid.addEventListener('mouseover', (e) => {
    const c = e.target.closest('.c');
    if (c) mark(cells.indexOf(c));
  });
  grid.addEventListener('mouseleave', () => mark(cursor));
  const symbols = () => grid.classList.toggle('symbols', symbolsIn.checked);
  symbolsIn.addEventListener('change', () => { localStorage.setItem(SYM_KEY, symbolsIn.checked ? '1' : '0'); symbols(); });
  symbols();

  function newGame(seed) {
    id.size = sizeIn.value;
    id.colors = colorsIn.value;
    id.seed = digits(String(seed)) ? String(seed) : '0';
    id.board = null;
    id.rules = { ...DEFAULT_RULES };
    seedIn.value = id.seed;
    cursor = null;
    hover = null;
    ctl.reset();
  }
  sizeIn.addEventListener('change', () => newGame(seedIn.value));
  colorsIn.addEventListener('change', () => newGame(seedIn.value));
  seedIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') newGame(seedIn.value); });
  searchIn.addEventListener('change', () => { widthIn.disabled = searchIn.value === 'nrpa'; });
  goalIn.addEventListener('change', () => {
    // NRPA plays for points only.
    if (goalIn.value === 'clear') searchIn.value = 'beam';
    widths();
    for (const o of searchIn.options) o.disabled = goalIn.value === 'clear' && o.value !== 'beam';
    widthIn.disabled = searchIn.value === 'nrpa';
  });

  root.append(h('div', {}, grid), ctl.panel);
  await ctl.start();
  return () => ctl.unmount();
}
