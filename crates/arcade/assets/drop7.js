// Drop7: drop the next disc with a click, the digits 1-7, or the arrows and Enter; ask the
// expectimax for every column's value, let it play on (a server-sent stream of its drops),
// scrub the timeline, export and load records, share the URL. Hardcore and Normal games are
// dealt from the seed exactly as `drop7 play --seed S` deals game 0; a Sequence game from the
// stream in the box.
import { post, postText, showError, h, linkParam } from '/assets/app.js';
import { controller } from '/assets/timeline.js';
import { bitsDrop7 } from '/assets/bits.js';

const MODES = [['hardcore', 'Hardcore'], ['normal', 'Normal'], ['sequence', 'Sequence']];
const DEPTHS = [['1', 'depth 1 (instant)'], ['2', 'depth 2 (fast)'], ['3', 'depth 3'], ['4', 'depth 4 (slower)']];
const DEATH = 1_000_000; // the search's penalty for a move that ends the game (its default)
const U64 = 18446744073709551615n;

const digits = (s) => /^\d{1,20}$/.test(s || '') && BigInt(s) <= U64;
const randomSeed = () => String(Math.floor(Math.random() * 1e6));
const fmt = (v) => Math.round(v).toLocaleString('en-US').replace('-', '−');

// A Sequence stream dealt from `seed` by the page itself (splitmix64): `n` discs with about
// 5/16 grays (the real stream's share is about 31%), then reveal values. Only a starting
// point: the stream box is the game, and the link and the record carry it.
function dealStream(seed, n = 1000) {
  let x = BigInt(seed) & U64;
  const next = () => {
    x = (x + 0x9e3779b97f4a7c15n) & U64;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & U64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & U64;
    return z ^ (z >> 31n);
  };
  let discs = '';
  for (let i = 0; i < n; i++) discs += next() % 16n < 5n ? '#' : String(1n + (next() % 7n));
  let reveals = '';
  for (let i = 0; i < n; i++) reveals += String(1n + (next() % 7n));
  return `${discs}\n${reveals}`;
}

// The two lines of a stream as the URL keeps them (`discs`, `reveals`), or null.
function streamOf(text) {
  const lines = String(text || '').split('\n').map((l) => l.replace(/[\s,]/g, '')).filter(Boolean);
  if (lines.length < 1 || lines.length > 2 || !/^[1-7#]+$/.test(lines[0]) || !/^[1-7]*$/.test(lines[1] || '')) return null;
  return { discs: lines[0], reveals: lines[1] || '' };
}

export async function mount(root, params) {
  const notes = [];
  const mode = linkParam(params, notes, 'mode', (v) => (MODES.some(([m]) => m === v) ? v : undefined), 'hardcore', 'a mode (hardcore, normal, sequence)');
  const seedText = (v) => (/^\d{1,20}$/.test(v) && BigInt(v) < 2n ** 64n ? v : undefined);
  const id = {
    mode,
    // Seeds are kept as text: past 2^53 a browser's numbers lose digits.
    seed: linkParam(params, notes, 'seed', seedText, randomSeed(), 'a seed from 0 to 2^64-1'),
    game: linkParam(params, notes, 'game', seedText, null, 'a game seed from 0 to 2^64-1'), // a record's own stream seed (u64, as text)
    stream: null, // a Sequence game's {discs, reveals}
    gray: linkParam(params, notes, 'gray', (v) => (/^\d+\/\d+$/.test(v) ? v.split('/').map(Number) : undefined), [1, 8], 'a gray share a/b'),
    frb: params.frb === '1',
    nrc: params.nrc === '1',
  };
  if (mode === 'sequence') id.stream = streamOf(`${params.discs || ''}\n${params.reveals || ''}`) || streamOf(dealStream(id.seed));
  let cursor = 3; // the column the arrows and Enter drop in (0-based)
  let shown = null;

  const grid = h('div', { class: 'gdrop7', testid: 'board', tabindex: 0, 'aria-label': 'Drop7 board: 1-7 drop in that column; the arrows move the cursor, Enter or Down drops' });
  const cols = Array.from({ length: 7 }, (_, c) => {
    const drop = h('div', { class: 'slot drop' });
    const cells = Array.from({ length: 7 }, () => h('div', { class: 'slot' })); // bottom first
    const key = h('div', { class: 'key' }, String(c + 1));
    const val = h('div', { class: 'val', testid: `value-${c + 1}` });
    const col = h('div', { class: 'col', 'data-col': c + 1, title: `column ${c + 1} (key ${c + 1})` }, drop, ...cells.slice().reverse(), key, val);
    return { col, drop, cells, key, val };
  });
  const nextEl = h('div', { class: 'slot', testid: 'next' });
  const dots = h('span', { class: 'dots', 'aria-hidden': 'true' });
  const dropsEl = h('b', { testid: 'drops' }, '0');
  const bar = h('div', { class: 'gdrop7-bar' },
    h('span', { class: 'lbl' }, 'next'), nextEl,
    h('span', { class: 'rise' }, dots, h('span', {}, dropsEl, h('span', { class: 'lbl' }, ' drops to the rise'))));
  grid.append(h('div', { class: 'gdrop7-cols' }, ...cols.map((x) => x.col)), bar);
  const level = h('b', { testid: 'level' }, '1');

  const modeIn = h('select', { testid: 'mode', 'aria-label': 'mode' }, ...MODES.map(([v, t]) => h('option', { value: v, selected: v === id.mode }, t)));
  const seedIn = h('input', { type: 'text', inputmode: 'numeric', class: 'gdrop7-seed', value: id.seed, testid: 'seed', 'aria-label': 'seed', spellcheck: 'false', autocomplete: 'off' });
  const streamIn = h('textarea', { class: 'gdrop7-stream', testid: 'stream', rows: 2, spellcheck: 'false', 'aria-label': 'Sequence stream: line 1 the discs (1-7, # for gray), line 2 the values revealed grays take' });
  const streamRow = h('div', { class: 'gdrop7-streamrow' }, h('small', { class: 'muted' }, 'stream: line 1 the discs (1-7, # gray), line 2 the reveals; New game plays it, Random seed deals another'), streamIn);
  const source = h('div', { class: 'muted gdrop7-cli', testid: 'cli' });
  const depthIn = h('select', { testid: 'depth', 'aria-label': 'search depth' }, ...DEPTHS.map(([v, t]) => h('option', { value: v, selected: v === '2' }, t)));
  const hintBox = h('div', { class: 'hint gdrop7-hint', testid: 'hint' });

  const setup = () => ({
    mode: id.mode,
    gray_share: id.gray,
    fatal_rise_bonus: id.frb,
    no_rise_chain: id.nrc,
    ...(id.mode === 'sequence' && id.stream ? { stream: `${id.stream.discs}\n${id.stream.reveals}\n` } : {}),
    ...(id.game !== null && id.mode !== 'sequence' ? { game_seed: id.game } : {}),
  });
  const where = () => ({ setup: setup(), seed: id.game !== null || id.mode === 'sequence' ? '0' : id.seed });
  const search = () => ({ depth: Number(depthIn.value) });
  const total = (f) => (id.mode === 'hardcore' ? 5 : Math.max(31 - f.level, 5));
  const statusText = (st) => (st.phase === 'playing' ? 'your drop' : `game over: ${st.message}`);

  // The panel's line of what this game is for the CLI.
  function describe() {
    const rules = `${id.gray.join('/') !== '1/8' ? ` --gray-share ${id.gray.join('/')}` : ''}${id.frb ? ' --fatal-rise-bonus' : ''}${id.nrc ? ' --no-rise-chain' : ''}`;
    const d = ` --depth ${depthIn.value}`;
    // A flag and its value do not break apart (nor at the flag's hyphens).
    const cmd = (text) => text.split(/ (?=--)/).flatMap((t, i) => [i ? ' ' : '', h('span', { class: 'nw' }, t)]);
    source.replaceChildren(...(id.mode === 'sequence'
      ? ['the CLI plays it: ', ...cmd(`drop7 play --mode sequence --stream FILE${rules}${d}`), ' (FILE: the stream box)']
      : id.game !== null
        ? [`a record's game: stream seed ${id.game} (${id.mode})`]
        : ['the CLI plays it: ', ...cmd(`drop7 play --games 1 --seed ${id.seed}${id.mode === 'normal' ? ' --mode normal' : ''}${rules}${d}`)]));
    streamRow.hidden = id.mode !== 'sequence';
    seedIn.disabled = id.mode === 'sequence';
  }

  function paint(el, p) {
    if (!p) { el.removeAttribute('data-d'); el.textContent = ''; el.removeAttribute('aria-label'); return; }
    const d = p.state === 'number' ? String(p.number) : p.state;
    el.dataset.d = d;
    el.textContent = p.state === 'number' ? d : '';
    el.setAttribute('aria-label', p.state === 'number' ? `disc ${d}` : `${d} gray disc`);
  }

  function showCursor() {
    grid.dataset.cursor = cursor + 1;
    cols.forEach((x, c) => {
      x.col.classList.toggle('cur', c === cursor);
      paint(x.drop, c === cursor && shown ? shown.next : null);
    });
  }

  function draw(f, k) {
    shown = f;
    f.columns.forEach((discs, c) => {
      cols[c].cells.forEach((el, r) => paint(el, discs[r]));
      cols[c].col.classList.toggle('full', discs.length >= 7);
    });
    const last = k > 0 ? Number(ctl.st.moves[k - 1]) - 1 : -1;
    cols.forEach((x, c) => x.col.classList.toggle('last', c === last));
    paint(nextEl, f.next);
    level.textContent = f.level;
    dropsEl.textContent = f.drops_left;
    const n = total(f);
    dots.replaceChildren(...Array.from({ length: n }, (_, i) => h('i', { class: i < f.drops_left ? 'on' : '' })));
    dots.classList.toggle('many', n > 10);
    showCursor();
  }

  function clear() {
    hintBox.replaceChildren();
    delete hintBox.dataset.best;
    delete hintBox.dataset.values;
    for (const x of cols) { x.val.textContent = ''; x.val.className = 'val'; x.col.classList.remove('best'); }
  }

  const g = {
    name: 'drop7',
    linkNotes: notes,
    title: 'Drop7',
    board: grid,
    sep: '',
    stats: [['level', level]],
    setup: [
      h('div', { class: 'row' }, h('label', {}, 'mode ', modeIn), h('label', {}, 'seed ', seedIn)),
      h('div', { class: 'row' },
        h('button', { class: 'primary', testid: 'new', onclick: () => newGame(seedIn.value) }, 'New game'),
        h('button', { testid: 'random', onclick: () => newGame(randomSeed(), true) }, 'Random seed')),
      streamRow,
      source,
    ],
    extras: [hintBox],
    autoControls: [depthIn],
    help: 'Click a column, or press 1-7, to drop the next disc there; ← → move the cursor and Enter or ↓ drops. H shows every column\'s value, B the bits (the engine\'s seven column words), Z/Y undo and redo, Space plays the timeline. Grays: dark striped is solid (two hits reveal it), light with a crack is cracked (one more hit).',
    async bitsOf(moves) {
      const r = await post('/api/drop7/position', { ...where(), moves: moves.join('') });
      return bitsDrop7(r.now.bits);
    },
    solverName: () => `the expectimax (depth ${depthIn.value})`,
    urlParams: () => {
      const p = { mode: id.mode };
      if (id.mode === 'sequence') Object.assign(p, id.stream);
      else if (id.game !== null) p.game = id.game;
      else p.seed = id.seed;
      if (id.gray.join('/') !== '1/8') p.gray = id.gray.join('/');
      if (id.frb) p.frb = 1;
      if (id.nrc) p.nrc = 1;
      return p;
    },
    async fetch(moves, all) {
      const r = await post('/api/drop7/position', { ...where(), moves: moves.join(''), frames: all });
      return { now: r.now, frames: all ? r.frames : undefined, legal: r.legal, over: r.status.phase !== 'playing', won: r.status.phase === 'won', statusText: statusText(r.status) };
    },
    draw,
    text: (f) => f.text,
    clear,
    autoUrl: (moves) => `/api/drop7/auto?r=${encodeURIComponent(JSON.stringify({ from: { ...where(), moves: moves.join('') }, search: search() }))}`,
    stream: { steps: (d) => d.steps.map((s) => [s.move, s.frame]) },
    doneText: (r) => `${g.solverName()}: ${r.played} drops to ${r.score.toLocaleString('en-US')} points, ${r.status.phase === 'playing' ? 'still playing' : r.status.message}${r.stop === 'aborted' ? ' (stopped)' : ''}`,
    exportRecord: (moves) => postText('/api/drop7/record', { ...where(), moves }),
    async loadRecord(text) {
      // The record goes to the server as written: its seed may not fit a browser number.
      const f = await post('/api/drop7/frames', `{"record": ${text}}`);
      const s = f.setup;
      id.mode = s.mode;
      id.gray = s.gray_share;
      id.frb = s.fatal_rise_bonus;
      id.nrc = s.no_rise_chain;
      id.game = s.game_seed ?? null;
      id.stream = s.stream ? streamOf(s.stream) : null;
      modeIn.value = id.mode;
      if (id.stream) streamIn.value = `${id.stream.discs}\n${id.stream.reveals}`;
      describe();
      const of = f.count > 1 ? ` (the first of ${f.count} records)` : '';
      const from = id.game !== null ? `stream seed ${id.game}` : 'its stream';
      return { moves: [...f.moves], message: `loaded a record of ${f.moves.length} drops${of} (${id.mode}, ${from}), score ${f.score.toLocaleString('en-US')}` };
    },
    key(e) {
      // 1-7 drop in that column (the cursor goes there too).
      if (/^[1-7]$/.test(e.key)) {
        cursor = Number(e.key) - 1;
        showCursor();
        ctl.move(e.key);
        return true;
      }
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        cursor = Math.min(6, Math.max(0, cursor + (e.key === 'ArrowLeft' ? -1 : 1)));
        showCursor();
        return true;
      }
      // Enter on a button or a link is theirs.
      if ((e.key === 'Enter' || e.key === 'ArrowDown') && !(e.target instanceof HTMLButtonElement) && !(e.target instanceof HTMLAnchorElement)) {
        ctl.move(String(cursor + 1));
        return true;
      }
      return false;
    },
    async hint() {
      if (ctl.live()) return;
      clear();
      hintBox.replaceChildren(h('span', { class: 'muted' }, 'searching…'));
      try {
        const r = await post('/api/drop7/hint', { from: { ...where(), moves: ctl.moves().join('') }, search: search() });
        const best = r.values.find((v) => v.move === r.move)?.value ?? 0;
        const fatal = (v) => v < -DEATH / 2;
        const rows = [];
        for (let c = 1; c <= 7; c++) {
          const v = r.values.find((x) => x.move === String(c));
          const x = cols[c - 1];
          const isBest = v && v.move === r.move;
          const note = !v ? 'full' : isBest ? `best, depth ${r.detail.depth}` : fatal(v.value) ? 'ends the game' : `${fmt(v.value - best)} vs best`;
          x.val.textContent = !v ? '' : isBest ? '★ best' : fatal(v.value) ? '✖ ends' : fmt(v.value - best);
          x.val.className = `val${isBest ? ' best' : ''}${v && fatal(v.value) ? ' bad' : ''}`;
          x.col.classList.toggle('best', !!isBest);
          rows.push(
            h('span', { class: isBest ? 'best' : '' }, `column ${c}`),
            h('span', { class: isBest ? 'best' : '', 'data-col': c }, v ? fmt(v.value) : '—'),
            h('span', { class: 'muted' }, note));
        }
        hintBox.replaceChildren(...rows,
          h('span', { class: 'muted gdrop7-unit', testid: 'hint-unit', title: r.unit }, `expected points (the move's points plus the evaluator's value after it); ${r.detail.stats.moves.toLocaleString('en-US')} moves searched`));
        hintBox.dataset.best = r.move || '';
        // The cursor goes to the best column: Enter plays the hint.
        if (r.move) { cursor = Number(r.move) - 1; showCursor(); }
        hintBox.dataset.values = JSON.stringify(Object.fromEntries(r.values.map((v) => [v.move, v.value])));
      } catch (e) {
        clear();
        showError(e.message);
      }
    },
  };
  const ctl = controller(params, g);

  grid.addEventListener('click', (e) => {
    const col = e.target.closest('.col');
    if (!col) return;
    cursor = Number(col.dataset.col) - 1;
    showCursor();
    ctl.move(col.dataset.col);
  });
  grid.addEventListener('mouseover', (e) => {
    const col = e.target.closest('.col');
    if (!col || Number(col.dataset.col) - 1 === cursor) return;
    cursor = Number(col.dataset.col) - 1;
    showCursor();
  });

  function newGame(seed, deal = false) {
    const m = modeIn.value;
    id.seed = digits(String(seed).trim()) ? String(seed).trim() : '0';
    id.game = null;
    id.gray = [1, 8];
    id.frb = false;
    id.nrc = false;
    seedIn.value = id.seed;
    if (m === 'sequence') {
      // New game plays the box; Random seed (or an empty box) deals a stream from the seed.
      const s = deal || !streamIn.value.trim() ? streamOf(dealStream(id.seed)) : streamOf(streamIn.value);
      if (!s) { showError('stream: line 1 the discs (1-7, # for gray), line 2 the reveal values (1-7)'); return; }
      id.stream = s;
      streamIn.value = `${s.discs}\n${s.reveals}`;
    }
    id.mode = m;
    describe();
    ctl.reset();
  }
  modeIn.addEventListener('change', () => newGame(seedIn.value));
  seedIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') newGame(seedIn.value); });
  depthIn.addEventListener('change', describe);
  if (id.stream) streamIn.value = `${id.stream.discs}\n${id.stream.reveals}`;
  describe();

  root.append(h('div', {}, grid), ctl.panel);
  await ctl.start();
  return () => ctl.unmount();
}
