// Tetris perfect clears: draw a field (click or drag), set the queue, hold, kicks and PC height
// or draw a queue from a seed; place pieces by hand (every legal placement of the current and
// the hold piece, aimed as a ghost with the mouse or the keys); ask the PC solver for a hint or
// let it solve and watch its placements with their key inputs; fumen in and out; undo/redo,
// the timeline, records and the position's URL as on every page.
import { post, postText, h, showError, linkParam } from '/assets/app.js';
import { controller } from '/assets/timeline.js';
import { bitsTetris } from '/assets/bits.js';

const FACINGS = 'NESW';
const KICKS = [['none', 'no kicks'], ['srs', 'SRS'], ['srs+', 'SRS+ (tetr.io)'], ['srs-tetrio', 'SRS, tetr.io 180']];
const LIMITS = [['1000', 'quick (1 s)'], ['5000', 'standard (5 s)'], ['10000', 'long (10 s)']];
const ROWS = 6; // the tallest PC zone: the field drawn is 6 x 10
const VIEWER = 'https://knewjade.github.io/fumen-for-mobile/#?d=';
// North shapes in their boxes (x right, y up), turned clockwise for the other facings.
const BOX = {
  I: [4, [[0, 2], [1, 2], [2, 2], [3, 2]]],
  O: [2, [[0, 0], [1, 0], [0, 1], [1, 1]]],
  T: [3, [[1, 2], [0, 1], [1, 1], [2, 1]]],
  J: [3, [[0, 2], [0, 1], [1, 1], [2, 1]]],
  L: [3, [[2, 2], [0, 1], [1, 1], [2, 1]]],
  S: [3, [[1, 2], [2, 2], [0, 1], [1, 1]]],
  Z: [3, [[0, 2], [1, 2], [1, 1], [2, 1]]],
};
const KEYS = { L: ['←', 'left'], R: ['→', 'right'], D: ['↓', 'down one row'], SD: ['SD', 'soft drop to the bottom'], HD: ['HD', 'hard drop'], CW: ['↻', 'turn clockwise'], CCW: ['↺', 'turn counter-clockwise'], 180: ['180', 'turn 180°'], HOLD: ['hold', 'hold'] };

/** The cells of `piece` facing `facing`, moved so that the lowest and leftmost are 0. */
export function shape(piece, facing) {
  let [n, cells] = BOX[piece];
  for (let i = 0; i < FACINGS.indexOf(facing); i++) cells = cells.map(([x, y]) => [y, n - 1 - x]);
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return cells.map(([x, y]) => [x - mx, y - my]);
}

/** A placement `[h]PFxy` read: hold first, piece, facing, the anchor and its four cells. */
export function parseMove(m) {
  const r = /^(h?)([IOTSZJL])([NESW])(\d)(\d)$/.exec(m || '');
  if (!r) return null;
  const [x, y] = [Number(r[4]), Number(r[5])];
  return { m, hold: r[1] === 'h', piece: r[2], facing: r[3], x, y, cells: shape(r[2], r[3]).map(([a, b]) => [a + x, b + y]) };
}

const say = (p) => `${p.hold ? 'hold, then ' : ''}${p.piece} facing ${p.facing} at column ${p.x}, row ${p.y}`;
const digits = (s) => /^\d{1,20}$/.test(s || '');
const randomSeed = () => String(Math.floor(Math.random() * 1e6));
const pieceOk = (s) => /^[IOTSZJL]$/.test(s || '');

// A field as the setup reads it (rows top first, X filled), from the URL's compact form (rows
// '_'-separated, trailing empty cells left off) and back; null: the empty field.
function fieldFromUrl(s) {
  if (!/^[X._]*$/i.test(s || '') || s.split('_').some((r) => r.length > 10)) return null;
  return normField(s.split('_').map((r) => r.padEnd(10, '.')).join('\n'));
}
const fieldToUrl = (f) => f.trimEnd().split('\n').map((r) => r.replace(/\.+$/, '')).join('_');
// Any field text to 'X' and '.', its empty rows on top dropped; null when it is empty.
function normField(text) {
  const rows = String(text || '').split('\n').filter((r) => r.length).map((r) => r.replace(/[^.]/g, 'X').padEnd(10, '.'));
  while (rows.length && !rows[0].includes('X')) rows.shift();
  return rows.length ? rows.join('\n') + '\n' : null;
}
// Rows bottom first, 10 cells each, from field text: `fill(ch)` for a filled cell.
function rowsOf(text, fill) {
  return String(text || '').split('\n').filter((r) => r.length).reverse().map((r) => [...r.padEnd(10, '.')].slice(0, 10).map((c) => (c === '.' ? '' : fill(c))));
}

export async function mount(root, params) {
  const notes = [];
  const id = {
    field: linkParam(params, notes, 'field', (v) => (/^[X._]*$/i.test(v) && !v.split('_').some((r) => r.length > 10) ? fieldFromUrl(v) : undefined), null, 'a field (rows of X and ., _ between them, top first)'),
    queue: linkParam(params, notes, 'queue', (v) => (/^[IOTSZJL]{1,40}$/i.test(v) ? v.toUpperCase() : undefined), '', 'a queue of 1 to 40 piece letters'),
    hold: linkParam(params, notes, 'hold', (v) => (pieceOk(v.toUpperCase()) ? v.toUpperCase() : undefined), null, 'one piece letter'),
    use_hold: params.nohold !== '1',
    kicks: linkParam(params, notes, 'kicks', (v) => (KICKS.some(([k]) => k === v) || (v === 'custom' && params.kt) ? v : undefined), 'srs+', `a kick table (${KICKS.map(([k]) => k).join(', ')}, or custom with kt)`),
    kick_table: params.kicks === 'custom' && params.kt ? params.kt : null,
    height: linkParam(params, notes, 'height', (v) => (/^[1-6]$/.test(v) ? Number(v) : undefined), null, 'a PC height from 1 to 6'),
    save_hold: linkParam(params, notes, 'save', (v) => (pieceOk(v) ? v : undefined), null, 'one piece letter'),
    seed: linkParam(params, notes, 'seed', (v) => (/^\d{1,20}$/.test(v) && BigInt(v) < 2n ** 64n ? v : undefined), randomSeed(), 'a seed from 0 to 2^64-1'),
  };
  let mode = 'play'; // or 'draw'
  let shown = null; // the frame on screen
  let shownK = 0;
  let legalNow = []; // the placements after every move
  let legalShown = null; // the placements of the frame on screen (null: not known yet)
  const legalCache = new Map();
  let ghost = null; // the placement aimed at
  let solution = null; // {base: [moves], moves: [...], steps: [{piece, facing, cells, hold, keys}], fumen, text}
  let solving = null; // the moves a Solve started from
  let draft = null; // the field being drawn: rows bottom first, booleans
  let draftSeq = 0;
  let cursor = [0, 0]; // the drawing cursor (keyboard)
  let drawnQueue = ''; // the queue the seed drew

  // The board: current and hold on the left, the field, the next pieces on the right.
  const cells = Array.from({ length: ROWS }, () => []);
  const fieldEl = h('div', { class: 'gt-field', 'aria-hidden': 'true' });
  for (let y = ROWS - 1; y >= 0; y--) {
    for (let x = 0; x < 10; x++) {
      const c = h('div', { class: 'c', 'data-x': x, 'data-y': y });
      cells[y][x] = c;
      fieldEl.append(c);
    }
  }
  const banner = h('div', { class: 'gt-banner', testid: 'banner', hidden: true });
  const currentEl = h('div', { class: 'gt-box', testid: 'current' });
  const holdEl = h('div', { class: 'gt-box', testid: 'hold-piece' });
  const nextEl = h('div', { class: 'gt-next', testid: 'next' });
  const board = h('div', { class: 'gtetris', testid: 'board', tabindex: 0, 'aria-label': 'Tetris field: arrows aim the ghost (left/right move, up turns, down tries another height, C the other piece), Enter places it; E switches to drawing the field' },
    h('div', { class: 'gt-side' }, h('small', {}, 'now'), currentEl, h('small', {}, 'hold'), holdEl),
    h('div', { class: 'gt-well' }, fieldEl, banner),
    h('div', { class: 'gt-side' }, h('small', {}, 'next'), nextEl));

  // Under the board: play or draw, the ghost, the placements.
  const bPlayMode = h('button', { testid: 'mode-play', 'aria-pressed': 'true', onclick: () => setMode('play') }, 'Place pieces');
  const bDrawMode = h('button', { testid: 'mode-draw', 'aria-pressed': 'false', onclick: () => setMode('draw') }, 'Draw field');
  const bClearField = h('button', { testid: 'clear-field', hidden: true, onclick: () => { draft = Array.from({ length: ROWS }, () => Array(10).fill(false)); paintDraft(); commitDraft(); } }, 'Empty field');
  const ghostEl = h('div', { class: 'gt-ghost', testid: 'ghost', 'aria-live': 'polite' });
  const draftEl = h('div', { class: 'muted', testid: 'draft' });
  const placementsEl = h('div', { class: 'gt-places', testid: 'placements' });
  const under = h('div', { class: 'gt-under' },
    h('div', { class: 'row gt-modes' }, bPlayMode, bDrawMode, bClearField),
    ghostEl, draftEl, placementsEl);

  // The setup.
  const queueIn = h('input', { type: 'text', class: 'gt-text', testid: 'queue', 'aria-label': 'queue (current piece first)', placeholder: 'IOTLJSZ…', autocomplete: 'off', spellcheck: 'false', value: id.queue });
  const holdIn = h('input', { type: 'text', class: 'gt-text gt-one', testid: 'hold', 'aria-label': 'piece in hold', maxlength: 1, placeholder: '-', autocomplete: 'off', value: id.hold || '' });
  const noHoldIn = h('input', { type: 'checkbox', testid: 'nohold', id: 'tetris-nohold', checked: !id.use_hold });
  const kicksIn = h('select', { testid: 'kicks', 'aria-label': 'kick table' }, ...KICKS.map(([v, t]) => h('option', { value: v, selected: v === id.kicks }, t)), h('option', { value: 'custom', hidden: true, selected: id.kicks === 'custom' }, 'the record\'s table'));
  const heightIn = h('select', { testid: 'height', 'aria-label': 'PC height' }, h('option', { value: '' }, 'any height'), ...[2, 3, 4, 5, 6].map((n) => h('option', { value: n, selected: n === id.height }, `${n}-line PC`)));
  const seedIn = h('input', { type: 'number', min: 0, value: id.seed, testid: 'seed', 'aria-label': 'seed' });
  const fumenIn = h('input', { type: 'text', class: 'gt-text gt-fumen-in', testid: 'fumen-in', 'aria-label': 'fumen to load', placeholder: 'paste a fumen (v115@…)', autocomplete: 'off', spellcheck: 'false' });
  const limitIn = h('select', { testid: 'limit', 'aria-label': 'solver time limit' }, ...LIMITS.map(([v, t]) => h('option', { value: v, selected: v === '5000' }, t)));
  const zoneEl = h('b', { testid: 'zone' }, '-');

  const hintBox = h('div', { class: 'gt-hint', testid: 'hint' });
  const solHead = h('div', { class: 'muted', testid: 'solution-head' });
  const solList = h('ol', { class: 'gt-steps', testid: 'solution' });
  const fumenOut = h('input', { type: 'text', class: 'gt-text gt-fumen-out', readonly: true, testid: 'fumen-out', 'aria-label': 'fumen' });
  const fumenWhat = h('span', { class: 'muted', testid: 'fumen-what' });
  const fumenLink = h('a', { class: 'gt-link', testid: 'fumen-link', target: '_blank', rel: 'noopener', href: VIEWER }, 'open in fumen ↗');
  const bCopy = h('button', { testid: 'fumen-copy', onclick: () => copy() }, 'Copy');

  const setupOf = (i = id) => {
    const s = { queue: i.queue, use_hold: i.use_hold, kicks: i.kicks };
    if (i.field) s.field = i.field;
    if (i.hold) s.hold = i.hold;
    if (i.kick_table) s.kick_table = i.kick_table;
    if (i.height) s.height = i.height;
    if (i.save_hold) s.save_hold = i.save_hold;
    return s;
  };
  const where = (i = id) => ({ setup: setupOf(i), seed: i.seed });
  const searchOpts = () => ({ millis: Number(limitIn.value) });
  const fr = (s) => ({ ...s, score: s.lines });
  const sameStart = (a, b) => a.length <= b.length && a.every((m, i) => m === b[i]);

  function statusText(r) {
    const s = r.status;
    if (s.phase === 'won') return `perfect clear: ${s.message}`;
    if (s.phase === 'over') return `no perfect clear left: ${s.message}`;
    const other = r.legal.find((m) => m.startsWith('h'));
    return `place ${r.now.current}${other ? ` (or ${other[1]} with hold)` : ''}: ${r.now.rows} row${r.now.rows === 1 ? '' : 's'} to clear`;
  }

  // The colours: the placements so far replayed on the start field (the engine's cells are the
  // truth: a cell the replay has no piece for is grey).
  function colours(k) {
    const f0 = ctl.st.frames[0];
    if (!f0) return [];
    let rows = rowsOf(f0.field, () => 'X');
    for (const m of ctl.st.moves.slice(0, k)) {
      const p = parseMove(m);
      if (!p) return [];
      for (const [x, y] of p.cells) {
        while (rows.length <= y) rows.push(Array(10).fill(''));
        rows[y][x] = p.piece;
      }
      rows = rows.filter((r) => r.some((c) => !c));
    }
    return rows;
  }
  const maskOf = (f) => { const n = f.cells.length; return (y, x) => y < n && f.cells[n - 1 - y][x] === 1; };

  function mini(piece, cls = '') {
    if (!piece) return h('div', { class: 'gt-mini empty' }, '–');
    const cs = shape(piece, 'N');
    const w = Math.max(...cs.map((c) => c[0])) + 1;
    const ht = Math.max(...cs.map((c) => c[1])) + 1;
    const el = h('div', { class: `gt-mini ${cls}`, 'data-piece': piece, title: piece, style: `--mw:${w};--mh:${ht}` });
    for (let y = ht - 1; y >= 0; y--) for (let x = 0; x < w; x++) el.append(h('i', { class: cs.some((c) => c[0] === x && c[1] === y) ? `p${piece}` : '' }));
    el.append(h('b', {}, piece));
    return el;
  }

  function draw(frame, k) {
    shown = frame;
    shownK = k;
    const at = ctl.st.moves.length === k;
    legalShown = at ? legalNow : legalCache.get(ctl.st.moves.slice(0, k).join('-')) || null;
    if (legalShown === null && !ctl.st.timer && !ctl.live()) ensureLegal(k);
    paintField();
    currentEl.replaceChildren(mini(frame.current, 'cur'));
    holdEl.replaceChildren(mini(frame.hold));
    const q = [...(frame.queue || '')];
    nextEl.replaceChildren(...q.slice(0, 5).map((p) => mini(p)));
    if (q.length > 5) nextEl.append(h('div', { class: 'gt-more', title: frame.queue }, `+${q.slice(5).join('')}`));
    if (!q.length) nextEl.append(h('div', { class: 'gt-mini empty' }, '–'));
    zoneEl.textContent = frame.rows ? `${frame.rows} of ${frame.height}` : `${frame.lines} cleared`;
    const won = frame.rows === 0 && frame.placed > 0 && frame.cells.every((r) => r.every((c) => !c));
    banner.hidden = !won;
    banner.textContent = won ? `PERFECT CLEAR · ${frame.lines} lines` : '';
    // Where a plan is followed, the ghost starts on its placement.
    const sol = solutionHere();
    const planned = sol && k >= sol.base.length ? sol.moves[k - sol.base.length] : null;
    if (planned && (!legalShown || legalShown.includes(planned))) ghost = planned;
    else keepGhost();
    decorate();
  }

  function paintField() {
    const f = shown;
    if (!f) return;
    const mask = maskOf(f);
    const col = colours(shownK);
    for (let y = 0; y < ROWS; y++) {
      for (let x = 0; x < 10; x++) {
        const c = cells[y][x];
        const filled = draft ? draft[y][x] : mask(y, x);
        const letter = filled ? (draft ? 'X' : col[y]?.[x] || 'X') : '';
        c.className = `c${letter ? ` p${letter}` : ' e'}${!draft && y >= f.rows ? ' out' : ''}${!draft && y === f.rows - 1 ? ' top' : ''}`;
        c.dataset.p = letter;
      }
    }
    board.dataset.draft = draft ? draftText() : '';
    if (!draft) delete board.dataset.draft;
  }

  // Ghost, hint and solution: what sits on top of the field.
  function decorate() {
    for (const row of cells) for (const c of row) { c.classList.remove('ghost', 'hintg', 'cur'); delete c.dataset.g; }
    const live = !draft && mode === 'play';
    const sol = solutionHere();
    const hintMove = sol && shownK >= sol.base.length && shownK < sol.base.length + sol.moves.length ? sol.moves[shownK - sol.base.length] : null;
    if (live && hintMove) for (const [x, y] of parseMove(hintMove).cells) if (y < ROWS) cells[y][x].classList.add('hintg');
    const g0 = live ? parseMove(ghost) : null;
    if (g0) for (const [x, y] of g0.cells) if (y < ROWS) { cells[y][x].classList.add('ghost'); cells[y][x].dataset.g = g0.piece; }
    if (mode === 'draw') cells[cursor[1]][cursor[0]].classList.add('cur');
    board.dataset.ghost = g0 ? g0.m : '';
    board.dataset.mode = mode;
    ghostEl.replaceChildren(...(mode === 'draw'
      ? [h('span', {}, 'Drawing: click or drag over cells to fill or empty them (arrows and Enter from the keys). Every change starts a new game from the field and the pieces left here.')]
      : g0 ? [h('span', { class: `gt-tag p${g0.piece}` }, g0.piece), ` ${say(g0)} `, h('code', {}, g0.m), hintMove === g0.m ? h('span', { class: 'gt-good' }, ' · the solver\'s choice') : '']
        : [h('span', { class: 'muted' }, legalShown !== null ? 'no placement here' : ctl.st.timer || ctl.live() ? 'the placements show when the timeline stops' : 'finding the placements…')]));
    placements();
    solutionList(sol);
    fumens(sol);
  }

  // The placements of the position on screen, a row per piece and facing; hover or focus aims
  // the ghost, a click places.
  let placed = null; // what the placement buttons were made for
  function placements() {
    const want = mode === 'draw' ? null : legalShown;
    if (want !== placed) chips(want);
    for (const b of placementsEl.querySelectorAll('.gt-chip')) b.classList.toggle('sel', b.dataset.move === ghost);
  }
  function chips(list) {
    placed = list;
    if (!list) { placementsEl.replaceChildren(); return; }
    const groups = new Map();
    for (const m of list) {
      const p = parseMove(m);
      const key = `${p.hold ? 'h' : ''}${p.piece}${p.facing}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(p);
    }
    const rows = [];
    let lastHold = null;
    for (const [, ps] of groups) {
      const p0 = ps[0];
      if (p0.hold !== lastHold) {
        rows.push(h('div', { class: 'gt-phead' }, p0.hold ? `${p0.piece} from hold (C switches)` : `${p0.piece}, the current piece`));
        lastHold = p0.hold;
      }
      ps.sort((a, b) => a.x - b.x || a.y - b.y);
      rows.push(h('div', { class: 'gt-prow' },
        h('span', { class: `gt-tag p${p0.piece}` }, `${p0.piece}${p0.facing}`),
        ...ps.map((p) => h('button', {
          class: 'gt-chip', testid: 'placement', 'data-move': p.m, title: `${say(p)} (${p.m})`, 'aria-label': say(p),
          onmouseenter: () => aim(p.m), onfocus: () => aim(p.m), onclick: () => place(p.m),
        }, `${p.x}${p.y ? `·${p.y}` : ''}`))));
    }
    if (!list.length) rows.push(h('div', { class: 'muted' }, 'no placement: the game is over here'));
    placementsEl.replaceChildren(...rows);
  }

  function aim(m) {
    if (m === ghost) return;
    ghost = m;
    decorate();
  }
  function place(m) {
    if (mode !== 'play' || !m) return;
    ghost = m;
    ctl.move(m);
  }

  // After a new position: keep aiming like before (same piece and facing, nearest column), or
  // start at the current piece's spawn column.
  function keepGhost() {
    const ps = (legalShown || []).map(parseMove);
    if (!ps.length) { ghost = null; return; }
    if (ps.some((p) => p.m === ghost)) return;
    const was = parseMove(ghost);
    const pick = (list, x) => list.slice().sort((a, b) => Math.abs(a.x - x) - Math.abs(b.x - x) || a.y - b.y || a.x - b.x)[0];
    const cur = ps.filter((p) => !p.hold);
    const same = was ? cur.filter((p) => p.piece === was.piece && p.facing === was.facing) : [];
    ghost = (same.length ? pick(same, was.x) : pick(cur.filter((p) => p.facing === 'N').length ? cur.filter((p) => p.facing === 'N') : cur.length ? cur : ps, 3)).m;
  }

  // The keys: left/right along the same piece and facing, up turns, down another height at the
  // same column, C the other piece.
  function steer(k) {
    const ps = (legalShown || []).map(parseMove);
    const g0 = parseMove(ghost);
    if (!ps.length || !g0) return;
    const near = (list, x, y) => list.slice().sort((a, b) => Math.abs(a.x - x) - Math.abs(b.x - x) || Math.abs(a.y - y) - Math.abs(b.y - y))[0];
    const mine = ps.filter((p) => p.hold === g0.hold);
    const same = mine.filter((p) => p.facing === g0.facing);
    let to = null;
    if (k === 'ArrowLeft' || k === 'ArrowRight') {
      const d = k === 'ArrowLeft' ? -1 : 1;
      const side = same.filter((p) => (p.x - g0.x) * d > 0);
      if (side.length) {
        const x = side.reduce((b, p) => (Math.abs(p.x - g0.x) < Math.abs(b - g0.x) ? p.x : b), side[0].x);
        to = near(side.filter((p) => p.x === x), x, g0.y);
      }
    } else if (k === 'ArrowUp') {
      const fs = [...new Set(mine.map((p) => p.facing))].sort((a, b) => FACINGS.indexOf(a) - FACINGS.indexOf(b));
      const f = fs[(fs.indexOf(g0.facing) + 1) % fs.length];
      to = near(mine.filter((p) => p.facing === f), g0.x, 0);
    } else if (k === 'ArrowDown') {
      const col = same.filter((p) => p.x === g0.x).sort((a, b) => a.y - b.y);
      to = col[(col.findIndex((p) => p.m === g0.m) + 1) % col.length];
    } else if (k === 'c' || k === 'C') {
      const other = ps.filter((p) => p.hold !== g0.hold);
      const n = other.filter((p) => p.facing === 'N');
      to = near(n.length ? n : other, g0.x, 0);
    }
    if (to) aim(to.m);
  }

  // The placements of a position in the past (the server knows them; asked once).
  async function ensureLegal(k) {
    const key = ctl.st.moves.slice(0, k).join('-');
    if (legalCache.has(key)) { legalShown = legalCache.get(key); decorate(); return; }
    try {
      const r = await post('/api/tetris/position', { ...where(), moves: key });
      legalCache.set(key, r.legal);
      if (shownK === k && ctl.st.moves.slice(0, k).join('-') === key) { legalShown = r.legal; keepGhost(); decorate(); }
    } catch (_) { /* the position on screen came from the server: nothing to show */ }
  }

  // The solution of the line on screen: a hint's plan or a Solve's, while the moves played
  // follow it.
  function solutionHere() {
    if (!solution) return null;
    const line = ctl.st.moves;
    const { base, moves } = solution;
    if (!sameStart(base, line)) return null;
    const after = line.slice(base.length);
    return after.every((m, i) => m === moves[i]) || sameStart(line.slice(base.length), moves) ? solution : null;
  }

  function solutionList(sol) {
    if (!sol) {
      solHead.textContent = solving ? 'the PC solver is looking…' : 'Solve or Hint (H) shows the perfect clear and its keys here.';
      solList.replaceChildren();
      delete solList.dataset.moves;
      return;
    }
    solHead.textContent = sol.text;
    solList.dataset.moves = sol.moves.join('-');
    solList.replaceChildren(...sol.moves.map((m, i) => {
      const p = parseMove(m);
      const s = sol.steps[i] || {};
      const keys = (s.keys || '').split(/\s+/).filter(Boolean);
      if (p.hold && keys[0] !== 'HOLD') keys.unshift('HOLD');
      const k = sol.base.length + i;
      const li = h('li', { class: `${k === shownK ? 'next' : k < shownK ? 'done' : ''}`, 'data-move': m, 'data-keys': keys.join(' '), title: 'show the field after this placement', onclick: () => { if (ctl.st.frames[k + 1]) ctl.goto(k + 1); } },
        h('span', { class: `gt-tag p${p.piece}` }, p.piece),
        h('span', { class: 'gt-where' }, `${p.facing} ${p.x},${p.y}`),
        h('span', { class: 'gt-keys', 'aria-label': keys.map((t) => (KEYS[t] || [t, t])[1]).join(', ') }, ...keys.map((t) => h('kbd', { title: (KEYS[t] || [t, t])[1] }, (KEYS[t] || [t])[0]))));
      return li;
    }));
  }

  function fumens(sol) {
    const f = sol?.fumen || shown?.fumen || '';
    fumenOut.value = f;
    fumenLink.href = VIEWER + f;
    fumenWhat.textContent = sol?.fumen ? `the solution from placement ${sol.base.length} (${sol.moves.length} pages)` : `the field at placement ${shownK}`;
  }

  async function copy() {
    fumenOut.select();
    try { await navigator.clipboard.writeText(fumenOut.value); } catch (_) { document.execCommand('copy'); }
    bCopy.textContent = 'Copied';
    setTimeout(() => { bCopy.textContent = 'Copy'; }, 1200);
  }

  // Drawing: the draft is the field on screen with the cells changed; each change that the
  // engine takes starts a new game (an unplayable draft stays, with the reason).
  const draftText = () => {
    const rows = [];
    for (let y = ROWS - 1; y >= 0; y--) rows.push(draft[y].map((v) => (v ? 'X' : '.')).join(''));
    return normField(rows.join('\n')) || '';
  };
  function startDraft() {
    if (draft || !shown) return;
    const mask = maskOf(shown);
    draft = Array.from({ length: ROWS }, (_, y) => Array.from({ length: 10 }, (_, x) => mask(y, x)));
  }
  function paintDraft() { paintField(); decorate(); }
  async function commitDraft() {
    const seq = ++draftSeq;
    const next = { ...id, field: normField(draftText()) };
    if (shownK > 0 && shown) {
      // From a position in the past or the end: the pieces left there.
      next.queue = `${shown.current || ''}${shown.queue || ''}`;
      next.hold = shown.hold || null;
    }
    try {
      await post('/api/tetris/position', { ...where(next), moves: '' });
      if (seq !== draftSeq || painting !== null) return;
      draftEl.textContent = '';
      delete draftEl.dataset.error;
      Object.assign(id, next);
      // The draft stays on screen until the new game is there (a click meanwhile draws on it).
      await newGame(true);
      if (seq === draftSeq && painting === null) { draft = null; paintField(); decorate(); }
    } catch (e) {
      if (seq !== draftSeq || painting !== null) return;
      draftEl.textContent = `not a game yet: ${e.message.replace(/^setup\.\w+: /, '')}`;
      draftEl.dataset.error = e.message;
    }
  }
  const cellAt = (x, y) => { const el = document.elementFromPoint(x, y); return el && fieldEl.contains(el) && el.classList.contains('c') ? el : null; };
  let painting = null; // the value a drag paints
  fieldEl.addEventListener('pointerdown', (e) => {
    const c = e.target.closest('.c');
    if (!c) return;
    if (mode !== 'draw') return;
    e.preventDefault();
    startDraft();
    const [x, y] = [Number(c.dataset.x), Number(c.dataset.y)];
    painting = !draft[y][x];
    draft[y][x] = painting;
    cursor = [x, y];
    paintDraft();
  });
  fieldEl.addEventListener('pointermove', (e) => {
    if (painting === null) {
      if (mode === 'play' && e.pointerType === 'mouse') hoverAim(e.target.closest('.c'));
      return;
    }
    const c = cellAt(e.clientX, e.clientY);
    if (!c || !draft) return;
    const [x, y] = [Number(c.dataset.x), Number(c.dataset.y)];
    if (draft[y][x] !== painting) { draft[y][x] = painting; cursor = [x, y]; paintDraft(); }
  });
  const endPaint = () => { if (painting !== null) { painting = null; commitDraft(); } };
  document.addEventListener('pointerup', endPaint);
  document.addEventListener('pointercancel', endPaint);

  // Aiming with the mouse: the placement over the cell, centred on it, of the piece and
  // facing aimed at if it has one there.
  function coverAt(c) {
    if (!c || !legalShown) return null;
    const [x, y] = [Number(c.dataset.x), Number(c.dataset.y)];
    const ps = legalShown.map(parseMove).filter((p) => p.cells.some(([a, b]) => a === x && b === y));
    if (!ps.length) return null;
    const g0 = parseMove(ghost);
    const rank = (p) => (g0 && p.hold === g0.hold ? 0 : 2) + (g0 && p.facing === g0.facing && p.piece === g0.piece ? 0 : 1);
    const dist = (p) => p.cells.reduce((s, [a, b]) => s + Math.abs(a - x) + Math.abs(b - y), 0);
    return ps.sort((a, b) => rank(a) - rank(b) || dist(a) - dist(b))[0];
  }
  function hoverAim(c) {
    const p = coverAt(c);
    if (p) aim(p.m);
  }
  fieldEl.addEventListener('click', (e) => {
    if (mode !== 'play') return;
    const c = e.target.closest('.c');
    if (!c) return;
    const g0 = parseMove(ghost);
    const [x, y] = [Number(c.dataset.x), Number(c.dataset.y)];
    if (g0 && g0.cells.some(([a, b]) => a === x && b === y)) place(g0.m);
    else hoverAim(c); // a tap aims first; a second tap on the ghost places it
  });

  function setMode(m) {
    mode = m;
    bPlayMode.setAttribute('aria-pressed', String(m === 'play'));
    bDrawMode.setAttribute('aria-pressed', String(m === 'draw'));
    bClearField.hidden = m !== 'draw';
    board.classList.toggle('drawing', m === 'draw');
    if (m === 'play' && draft) { draft = null; draftEl.textContent = ''; paintField(); }
    decorate();
  }

  const g = {
    name: 'tetris',
    linkNotes: notes,
    title: 'Tetris perfect clear',
    board,
    sep: '-',
    stats: [['zone rows', zoneEl]],
    setup: [
      h('div', { class: 'row' }, h('label', {}, 'queue ', queueIn), h('label', {}, 'hold ', holdIn)),
      h('div', { class: 'row' }, h('label', { for: noHoldIn.id, class: 'muted' }, noHoldIn, ' no hold'), kicksIn, heightIn),
      h('div', { class: 'row' },
        h('button', { class: 'primary', testid: 'new', onclick: () => fromInputs() }, 'New game'),
        h('label', {}, 'seed ', seedIn),
        h('button', { testid: 'random', onclick: () => seeded(randomSeed()) }, 'Random queue')),
      h('div', { class: 'row' }, fumenIn, h('button', { testid: 'fumen-load', onclick: () => loadFumen(fumenIn.value) }, 'Load fumen')),
    ],
    extras: [hintBox,
      h('div', { class: 'gt-sol' }, solHead, solList),
      h('div', { class: 'gt-fumen' }, h('div', { class: 'row' }, h('small', { class: 'muted' }, 'Fumen:'), fumenWhat), h('div', { class: 'row' }, fumenOut, bCopy, fumenLink))],
    autoLabel: 'Solve',
    autoControls: [limitIn],
    playOut: true,
    help: 'Aim the ghost with the mouse over the field, the placement buttons, or the keys: ←/→ move it, ↑ turns it, ↓ tries another height, C the other piece (hold); click or Enter places it. E draws the field. H shows the solver\'s next placement, B the bits (the zone\'s row words), Z/Y undo and redo, Space plays the timeline. Solve finds the perfect clear and plays it out with its keys.',
    async bitsOf(moves) {
      const r = await post('/api/tetris/position', { ...where(), moves: moves.join('-') });
      return bitsTetris(r.now.bits);
    },
    solverName: () => 'the PC solver',
    urlParams: () => {
      const p = {};
      if (id.queue) p.queue = id.queue; else p.seed = id.seed;
      if (id.field) p.field = fieldToUrl(id.field);
      if (id.hold) p.hold = id.hold;
      if (!id.use_hold) p.nohold = 1;
      if (id.kicks !== 'srs+') p.kicks = id.kicks;
      if (id.height) p.height = id.height;
      if (id.save_hold) p.save = id.save_hold;
      if (id.kick_table) p.kt = id.kick_table;
      return p;
    },
    async fetch(moves, all) {
      const r = await post('/api/tetris/position', { ...where(), moves: moves.join('-'), frames: all });
      legalNow = r.legal;
      legalCache.set(moves.join('-'), r.legal);
      if (all && !id.queue) {
        const f0 = r.frames[0];
        drawnQueue = `${f0.current || ''}${f0.queue}`;
        queueIn.value = drawnQueue;
      }
      return { now: fr(r.now), frames: all ? r.frames.map(fr) : undefined, legal: r.legal, over: r.status.phase !== 'playing', won: r.status.phase === 'won', statusText: statusText(r) };
    },
    draw,
    text: (f) => `${f.cells.map((r) => r.map((c) => (c ? '#' : '.')).join('')).join('\n')}\ncurrent ${f.current || '-'}  hold ${f.hold || '-'}  next ${f.queue}`.trimEnd(),
    clear: () => { hintBox.replaceChildren(); delete hintBox.dataset.move; },
    autoUrl(moves) {
      solving = moves.slice();
      solution = null;
      const r = { from: { ...where(), moves: moves.join('-') }, search: searchOpts() };
      return `/api/tetris/auto?r=${encodeURIComponent(JSON.stringify(r))}`;
    },
    stream: { steps: (d) => d.steps.map((s) => [s.move, fr(s.frame)]) },
    doneText(r) {
      const base = solving || [];
      solving = null;
      const moves = ctl.st.moves.slice(base.length);
      if (!moves.length) {
        decorate();
        return r.stop === 'aborted' ? 'stopped' : 'the PC solver found no perfect clear from here';
      }
      // The keys from the record the run wrote, then the solver's own report (and the
      // solution's fumen) from the same position.
      const steps = (r.record?.steps || []).slice(base.length);
      solution = { base, moves, steps, fumen: '', text: `the solver's perfect clear: ${moves.length} placements` };
      solutionReport(base, moves);
      const what = r.status.phase === 'won' ? r.status.message : `${moves.length} placements, ${r.status.message}`;
      return `the PC solver: ${what}${r.stop === 'aborted' ? ' (stopped)' : ''}; checked, playing it out`;
    },
    exportRecord: (moves) => postText('/api/tetris/record', { ...where(), moves }),
    async loadRecord(text) {
      const r = await post('/api/tetris/frames', `{"record": ${text}}`);
      const s = r.setup;
      Object.assign(id, {
        field: normField(s.field), queue: s.queue || '', hold: s.hold || null, use_hold: s.use_hold !== false,
        kicks: s.kicks || 'srs+', kick_table: s.kick_table || null, height: s.height || null, save_hold: s.save_hold || null,
        seed: String(r.seed ?? '1'),
      });
      syncInputs();
      forget();
      const moves = r.moves.split('-').filter(Boolean);
      const of = r.count > 1 ? ` (the first of ${r.count} records)` : '';
      return { moves, message: `loaded a record of ${moves.length} placements${of}: ${r.status.message}` };
    },
    key(e) {
      const k = e.key;
      if (k === 'e' || k === 'E') { setMode(mode === 'play' ? 'draw' : 'play'); return true; }
      if (mode === 'draw') {
        const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[k];
        if (d) {
          cursor = [Math.min(9, Math.max(0, cursor[0] + d[0])), Math.min(ROWS - 1, Math.max(0, cursor[1] + d[1]))];
          decorate();
          return true;
        }
        if (k === 'Enter' || k === 'x' || k === 'X') {
          startDraft();
          draft[cursor[1]][cursor[0]] = !draft[cursor[1]][cursor[0]];
          paintDraft();
          commitDraft();
          return true;
        }
        return false;
      }
      if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'c', 'C'].includes(k)) { steer(k); return true; }
      if (k === 'Enter') { place(ghost); return true; }
      return false;
    },
    async hint() {
      hintBox.replaceChildren(h('span', { class: 'muted' }, 'looking for a perfect clear…'));
      delete hintBox.dataset.move;
      const base = ctl.moves();
      try {
        const r = await post('/api/tetris/hint', { from: { ...where(), moves: base.join('-') }, search: searchOpts() });
        const rep = r.detail.report;
        solution = { base, moves: r.detail.moves.split('-'), steps: rep.steps, fumen: rep.fumen, text: planText(rep, r.detail) };
        const p = parseMove(r.move);
        hintBox.replaceChildren(h('span', {}, 'next: '), h('span', { class: `gt-tag p${p.piece}` }, p.piece), ` ${say(p)} `, h('code', {}, r.move), h('span', { class: 'muted' }, ' (dashed on the field)'));
        hintBox.dataset.move = r.move;
        if (shownK === base.length) ghost = r.move;
        decorate();
      } catch (e) {
        hintBox.replaceChildren(h('span', { class: 'gt-bad' }, e.message));
        hintBox.dataset.none = e.message;
      }
    },
  };
  const planText = (rep, d) => `the solver's plan: a ${rep.height}-line perfect clear in ${rep.steps.length} placements${d && d.total_height !== rep.height ? ` (${d.total_height} lines from the start)` : ''} (${rep.nodes.toLocaleString('en-US')} nodes, ${rep.millis < 1 ? rep.millis.toFixed(2) : Math.round(rep.millis)} ms)`;

  async function solutionReport(base, moves) {
    try {
      const r = await post('/api/tetris/hint', { from: { ...where(), moves: base.join('-') }, search: searchOpts() });
      const rep = r.detail.report;
      if (solution && solution.base === base && r.detail.moves === moves.join('-')) {
        solution = { base, moves, steps: rep.steps, fumen: rep.fumen, text: planText(rep, r.detail) };
        decorate();
      }
    } catch (_) { /* the record's keys stay */ }
  }

  const ctl = controller(params, g);
  // A placement a second reads better than ten while the solver's plan plays out.
  const speedEl = ctl.panel.querySelector('[data-testid=speed]');
  if (speedEl) speedEl.value = '2';
  // The placements of a position in the past are asked for once the timeline stops on it.
  const later = () => setTimeout(() => { if (shown && legalShown === null && !ctl.st.timer && !ctl.live()) ensureLegal(shownK); }, 0);
  ctl.panel.addEventListener('click', later);
  document.addEventListener('keyup', later);

  function forget(keepDraft) {
    solution = null;
    solving = null;
    legalCache.clear();
    legalShown = null;
    if (keepDraft) return;
    draft = null;
    draftEl.textContent = '';
  }
  function syncInputs() {
    queueIn.value = id.queue || drawnQueue;
    holdIn.value = id.hold || '';
    noHoldIn.checked = !id.use_hold;
    const custom = kicksIn.querySelector('option[value=custom]');
    custom.hidden = id.kicks !== 'custom';
    kicksIn.value = id.kicks;
    heightIn.value = id.height ? String(id.height) : '';
    seedIn.value = id.seed;
  }
  async function newGame(keepDraft) {
    forget(keepDraft);
    syncInputs();
    await ctl.reset();
  }
  // A setup change the engine takes starts a new game; one it refuses says why and changes
  // nothing.
  async function change(next) {
    try {
      await post('/api/tetris/position', { ...where(next), moves: '' });
    } catch (e) {
      showError(e.message);
      return false;
    }
    showError('');
    Object.assign(id, next);
    await newGame();
    return true;
  }
  function fromInputs() {
    const q = queueIn.value.replace(/[\s,]/g, '').toUpperCase();
    const hold = holdIn.value.trim().toUpperCase();
    const kicks = kicksIn.value;
    return change({
      ...id,
      queue: q === drawnQueue && !id.queue ? '' : q,
      hold: hold || null,
      use_hold: !noHoldIn.checked,
      kicks,
      kick_table: kicks === 'custom' ? id.kick_table : null,
      height: heightIn.value ? Number(heightIn.value) : null,
      seed: digits(seedIn.value) ? seedIn.value : id.seed,
    });
  }
  function seeded(seed) {
    seedIn.value = seed;
    return change({ ...id, queue: '', seed: digits(String(seed)) ? String(seed) : '0' });
  }
  async function loadFumen(text) {
    const m = /v115@[0-9A-Za-z+/?]+/.exec(text || '');
    if (!m) { showError('fumen: paste a fumen string (v115@…) or a fumen link'); return; }
    const fumen = m[0].replace(/\?/g, '');
    try {
      const r = await post('/api/tetris/position', { setup: { ...setupOf(), field: undefined, fumen }, seed: id.seed, moves: '' });
      const field = normField(r.now.field);
      if (await change({ ...id, field })) fumenIn.value = '';
    } catch (e) {
      showError(e.message);
    }
  }
  const enter = (el, f) => el.addEventListener('keydown', (e) => { if (e.key === 'Enter') f(); });
  enter(queueIn, fromInputs);
  enter(holdIn, fromInputs);
  enter(seedIn, () => seeded(seedIn.value));
  enter(fumenIn, () => loadFumen(fumenIn.value));
  for (const el of [noHoldIn, kicksIn, heightIn]) el.addEventListener('change', fromInputs);

  // A link may bring its field as a fumen.
  if (params.fumen && !id.field) {
    try {
      const r = await post('/api/tetris/position', { setup: { ...setupOf(), fumen: params.fumen }, seed: id.seed, moves: '' });
      id.field = normField(r.now.field);
    } catch (e) {
      showError(e.message);
    }
  }
  syncInputs();
  root.append(h('div', { class: 'gt-col' }, board, under), ctl.panel);
  await ctl.start();
  return () => {
    ctl.unmount();
    document.removeEventListener('pointerup', endPaint);
    document.removeEventListener('pointercancel', endPaint);
    document.removeEventListener('keyup', later);
  };
}
