// The "bits" view: a position as the engine holds it, read off the words the server sends in
// a snapshot's `bits` (never recomputed here). One renderer per game; each returns an element.
import { h } from '/assets/app.js';

const hex = (s) => s.replace(/^0x/, '');
/** A word given as `0x` hex text, as a BigInt (u64 words do not fit a browser number). */
const big = (s) => BigInt(s);
const bit = (w, i) => Number((w >> BigInt(i)) & 1n);

/** A small grid of bits: `rows` arrays of 0/1 (top row first), with a title and a caption. */
function bitGrid(title, rows, cls = '', caption = '') {
  const w = rows[0]?.length || 0;
  const grid = h('div', { class: `bitgrid ${cls}`, style: `--w:${w}`, role: 'img', 'aria-label': `${title}: ${rows.map((r) => r.join('')).join('/')}` },
    ...rows.flat().map((b) => h('i', { class: b ? 'on' : '' })));
  return h('figure', { class: 'bitfig' }, grid, h('figcaption', {}, h('b', {}, title), caption ? ` ${caption}` : ''));
}

function explain(...lines) {
  return h('div', { class: 'bits-notes' }, ...lines.map((l) => h('p', { class: 'muted' }, l)));
}

/** 2048: one u64, 16 nibbles, each the log2 of its tile; rows are 16-bit table indices. */
export function bits2048(word) {
  const w = big(word);
  const digits = hex(word).padStart(16, '0');
  // Cell 4r + c is nibble 4r + c; the word's text runs from nibble 15 down to 0.
  const nibble = (i) => Number((w >> BigInt(4 * i)) & 15n);
  const cells = Array.from({ length: 16 }, (_, i) => {
    const n = nibble(i);
    return h('div', { class: 'nib', 'data-n': n },
      h('b', {}, n.toString(16)),
      h('small', {}, n.toString(2).padStart(4, '0')),
      h('span', {}, n ? String(2 ** n) : '·'));
  });
  const rows = [0, 1, 2, 3].map((r) => h('div', { class: 'rowword' },
    h('span', { class: 'muted' }, `row ${r}`),
    h('code', {}, '0x' + [3, 2, 1, 0].map((c) => nibble(4 * r + c).toString(16)).join('')),
    h('span', { class: 'muted' }, `→ table[${Number((w >> BigInt(16 * r)) & 0xffffn)}]`)));
  return h('div', { class: 'bits-2048' },
    h('div', { class: 'word' }, h('code', { testid: 'bits-word' }, '0x', ...[...digits].map((d, i) => h('span', { class: `n${15 - i}` }, d)))),
    h('div', { class: 'nibgrid' }, ...cells),
    h('div', { class: 'rowwords' }, ...rows),
    explain('The board is one u64: 16 cells of 4 bits, cell 4·row + column in bits 16·row + 4·column up, each the log2 of its tile (0: empty).',
      'A move looks up each 16-bit row (or column, after a transpose) in a 65,536-entry table of moved rows: four loads, no loop over tiles.'));
}

/** Drop7: seven u32 column words, a nibble per cell, the bottom row lowest. */
export function bitsDrop7(words) {
  const name = (n) => (n === 0 ? '·' : n <= 7 ? String(n) : n === 8 ? '#' : 'x');
  const cols = words.map((s, c) => {
    const w = big(s);
    const nib = (r) => Number((w >> BigInt(4 * r)) & 15n);
    return h('div', { class: 'col' },
      ...[6, 5, 4, 3, 2, 1, 0].map((r) => h('div', { class: 'nib', 'data-n': nib(r) }, h('b', {}, name(nib(r))), h('small', {}, nib(r).toString(2).padStart(4, '0')))),
      h('code', { testid: `bits-col-${c + 1}` }, s));
  });
  return h('div', { class: 'bits-drop7' },
    h('div', { class: 'cols' }, ...cols),
    explain('Seven u32 words, one per column; each cell is a nibble, row 0 (the bottom) in bits 0-3, row 6 in bits 24-27, the top nibble always 0.',
      'Codes: 1-7 a numbered disc, 8 (#) a solid gray, 9 (x) a cracked one. Columns have no holes, so a column\'s height is one leading-zero count and a drop is one OR of the disc\'s code shifted to that height.'));
}

/** SameGame: per live column, three colour bitplanes and the occupancy mask. */
export function bitsSameGame(planes, height) {
  const words = (list) => list.map(big);
  const grid = (ws) => Array.from({ length: height }, (_, i) => ws.map((w) => bit(w, height - 1 - i)));
  const occ = words(planes.occ);
  const p = planes.planes.map(words);
  const figs = [
    bitGrid('occ', grid(occ), 'occ', 'tiles'),
    ...p.map((ws, k) => bitGrid(`plane ${k}`, grid(ws), `p${k}`, `colour bit ${k}`)),
  ];
  // Each colour's tiles, as the group finder takes them: occ AND each plane or its complement.
  const mask = (w) => (1n << BigInt(height)) - 1n & w;
  const colours = [];
  for (let c = 0; c < 8; c++) {
    const ws = occ.map((o, x) => [0, 1, 2].reduce((m, k) => m & mask((c >> k) & 1 ? p[k][x] : ~p[k][x]), o));
    if (ws.some((w) => w !== 0n)) {
      const formula = ['occ', ...[2, 1, 0].map((k) => ((c >> k) & 1 ? `p${k}` : `~p${k}`))].join(' & ');
      colours.push(bitGrid(`colour ${c}`, grid(ws), `k${c}`, formula));
    }
  }
  return h('div', { class: 'bits-same' },
    h('p', { class: 'muted' }, 'The engine\'s words: per column, occupancy and three colour bitplanes.'),
    h('div', { class: 'figs' }, ...figs),
    h('p', { class: 'muted' }, 'Each colour\'s tiles, one AND of those words per column (how the group finder starts):'),
    h('div', { class: 'figs', testid: 'bits-colours' }, ...colours),
    h('details', {}, h('summary', {}, `the ${occ.length} live columns' words`),
      h('table', { class: 'words' },
        h('tr', {}, h('th', {}, 'x'), h('th', {}, 'occ'), h('th', {}, 'plane 0'), h('th', {}, 'plane 1'), h('th', {}, 'plane 2')),
        ...planes.occ.map((o, x) => h('tr', {}, h('td', {}, String(x)), h('td', {}, h('code', {}, o)), ...p.map((_, k) => h('td', {}, h('code', {}, planes.planes[k][x]))))))),
    explain('Each column is four u32 words, bit y for row y from the bottom: the occupancy mask (always the low height bits) and three colour bitplanes; a tile\'s colour is the 3-bit number its planes spell.',
      'A colour\'s tiles are an AND of the planes (or their complements) with occ; gravity after a removal is one PEXT of each plane by the surviving cells; emptied columns close up (only the live columns are stored).'));
}

/** Tetris: the zone's rows as u16 words, and the zone packed into the solver's u64. */
export function bitsTetris(b) {
  const rows = b.rows.map(big);
  const grid = [...rows].reverse().map((w) => Array.from({ length: 10 }, (_, x) => bit(w, x)));
  return h('div', { class: 'bits-tetris' },
    h('div', { class: 'figs' },
      bitGrid('rows', grid.length ? grid : [Array(10).fill(0)], 'occ'),
      h('div', { class: 'rowwords' }, ...[...b.rows].reverse().map((s, i) => h('div', { class: 'rowword' },
        h('span', { class: 'muted' }, `row ${b.rows.length - 1 - i}`), h('code', {}, s))))),
    h('div', { class: 'word' }, h('span', { class: 'muted' }, 'zone '), h('code', { testid: 'bits-zone' }, b.zone)),
    explain('Each row is a u16, bit x for column x (a full row is 0x03ff). The solver packs the zone, at most 6 rows, into one u64 (row y in bits 10·y up): a placement is an OR, a line clear a mask and shift.'));
}

/** Snake: the occupancy bitset, and the cells BFS and A* each reach for the same goal. */
export function bitsSnake(now) {
  const b = now.bits;
  const { width: w, height: hgt } = now;
  const body = new Set(now.body);
  const board = (title, reached, route, cls) => {
    const seen = new Set(reached);
    const on = new Set(route);
    const cells = Array.from({ length: w * hgt }, (_, i) => {
      // Rows top first on screen; cell y * w + x with y = 0 at the top (as the page draws it).
      const c = i;
      const k = body.has(c) ? (c === now.body[0] ? 'head' : 'body') : c === now.fruit ? 'fruit' : on.has(c) ? 'route' : seen.has(c) ? 'seen' : '';
      return h('i', { class: k });
    });
    return h('figure', { class: `searchfig ${cls}` },
      h('div', { class: 'sgrid', style: `--w:${w}` }, ...cells),
      h('figcaption', {}, h('b', {}, title), ` reached `, h('b', { testid: `bits-${cls}-count` }, String(reached.length)), ` cells; route ${route.length} moves`));
  };
  const words = b.occupied.map((s, i) => [i, s]).filter(([, s]) => big(s) !== 0n);
  return h('div', { class: 'bits-snake' },
    now.fruit === null || now.fruit === undefined
      ? h('p', { class: 'muted' }, 'no fruit on the board: no search to show')
      : h('div', { class: 'figs' }, board('BFS', b.bfs, b.route, 'bfs'), board('A*', b.astar, b.astar_route, 'astar')),
    h('div', { class: 'rowwords' }, ...words.map(([i, s]) => h('div', { class: 'rowword' }, h('span', { class: 'muted' }, `cells ${64 * i}-${64 * i + 63}`), h('code', {}, s)))),
    explain('The body is a 1,024-bit set (16 u64 words; bit i of word k is cell 64·k + i): a crash test is one bit test.',
      'Both searches find a shortest route from the head to the fruit around the body; BFS reaches every cell closer than the fruit, A* with the Manhattan estimate mostly the cells toward it. Shaded: the cells each put on its open list.'));
}
