// The home page: every game with a line about it and a small live board, where its solver plays
// a short game (streamed from the server like any auto run, then looped in the page).
import { h, post } from '/assets/app.js';

const SAMEGAME = ['#e69f00', '#56b4e9', '#009e73', '#f0e442', '#0072b2', '#d55e00', '#cc79a7', '#bbbbbb'];
const TETRIS = { I: '#31c7ef', O: '#f7d308', T: '#ad4d9c', S: '#42b642', Z: '#ef2029', J: '#5a65ad', L: '#ef7921' };
const DROP7 = ['#e69f00', '#f0e442', '#009e73', '#56b4e9', '#d55e00', '#cc79a7', '#0072b2'];

/** Fills cell (x, y) of a `w` x `hh` grid on the canvas. */
function cell(ctx, w, hh, x, y, color, round = 0.2) {
  const s = Math.min(ctx.canvas.width / w, ctx.canvas.height / hh);
  const ox = (ctx.canvas.width - s * w) / 2;
  const oy = (ctx.canvas.height - s * hh) / 2;
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.roundRect(ox + x * s + 1, oy + y * s + 1, s - 2, s - 2, s * round);
  ctx.fill();
  return { s, ox, oy };
}

const GAMES = [
  {
    name: 'samegame', title: 'SameGame',
    line: 'Remove groups of one colour; bitplane columns, PEXT gravity, a beam search and NRPA.',
    req: { from: { setup: { width: 10, height: 8, colors: 4 }, seed: '3' }, search: { width: 8 } },
    draw(ctx, f) {
      const rows = f.board.trimEnd().split('\n');
      rows.forEach((r, y) => [...r].forEach((c, x) => { if (c !== '.') cell(ctx, r.length, rows.length, x, y, SAMEGAME[Number(c)]); }));
    },
  },
  {
    name: 'tetris', title: 'Tetris',
    line: 'Perfect clears: exact kick-table reachability and a solver that finds the first one.',
    req: { from: { seed: '7' }, search: {} },
    draw(ctx, f) {
      const n = f.cells.length;
      for (let y = 0; y < 6; y++) for (let x = 0; x < 10; x++) {
        const filled = y >= 6 - n && f.cells[y - (6 - n)][x];
        cell(ctx, 10, 6, x, y, filled ? TETRIS[f.current] || '#8a93a0' : '#3a4047', 0.1);
      }
    },
  },
  {
    name: 'drop7', title: 'Drop7',
    line: 'Drop numbered discs into seven columns; nibble columns, bitboard cascades, a fair expectimax.',
    req: { from: { setup: { mode: 'hardcore' }, seed: '5' }, search: { depth: 1 } },
    draw(ctx, f) {
      const color = (p) => (p.state === 'number' ? DROP7[p.number - 1] : p.state === 'cracked' ? '#c9ced6' : '#6b7480');
      for (let x = 0; x < 7; x++) for (let y = 0; y < 7; y++) cell(ctx, 7, 7, x, y, '#3a4047', 0.5);
      f.columns.forEach((col, x) => col.forEach((p, i) => cell(ctx, 7, 7, x, 6 - i, color(p), 0.5)));
    },
  },
  {
    name: '2048', title: '2048',
    line: 'A 64-bit board moved by row tables; expectimax with a heuristic or n-tuple networks.',
    req: { from: { seed: '11' }, search: { depth: 1, tt_bits: 12 } },
    draw(ctx, f) {
      f.tiles.forEach((v, i) => {
        const shade = v ? Math.min(Math.log2(v), 12) / 12 : 0;
        const { s, ox, oy } = cell(ctx, 4, 4, i % 4, Math.floor(i / 4), v ? `hsl(${35 - shade * 25}, 85%, ${88 - shade * 40}%)` : '#cdc1b4', 0.12);
        if (v) {
          ctx.fillStyle = shade > 0.3 ? '#fff' : '#3b332b';
          ctx.font = `bold ${s * (v >= 1000 ? 0.28 : 0.38)}px system-ui, sans-serif`;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText(v, ox + (i % 4 + 0.5) * s, oy + (Math.floor(i / 4) + 0.5) * s);
        }
      });
    },
  },
  {
    name: 'snake', title: 'Snake',
    line: 'BFS and allocation-free A*; Hamiltonian-cycle players that fill the board.',
    req: { from: { setup: { size: '8x8' }, seed: '2' }, search: { player: 'cycle' } },
    draw(ctx, f, k, frames, start) {
      for (let i = 0; i < 64; i++) cell(ctx, 8, 8, i % 8, Math.floor(i / 8), '#3a4047', 0.15);
      const body = [];
      for (let j = k; body.length < f.len; j--) body.push(j > 0 ? frames[j].head : start[-j] ?? start[start.length - 1]);
      body.forEach((c, i) => cell(ctx, 8, 8, c % 8, Math.floor(c / 8), i === 0 ? '#f0e442' : '#009e73', 0.3));
      if (f.fruit !== null) cell(ctx, 8, 8, f.fruit % 8, Math.floor(f.fruit / 8), '#d55e00', 0.5);
    },
  },
];

export async function mount(root) {
  const grid = h('div', { class: 'home', testid: 'home' });
  const timers = [];
  const sources = [];
  for (const g of GAMES) {
    const canvas = h('canvas', { width: 168, height: 168, 'aria-hidden': 'true' });
    const card = h('a', { class: 'card', href: `#/${g.name}`, testid: `card-${g.name}`, 'aria-label': `${g.title}: ${g.line}` },
      canvas, h('h3', {}, g.title), h('p', {}, g.line));
    grid.append(card);
    live(g, canvas, card, timers, sources);
  }
  root.append(h('div', { class: 'homepage' },
    h('section', { class: 'intro' },
      h('h2', {}, 'Five grid puzzles, each packed into machine words'),
      h('p', { class: 'muted' }, 'Play any of them by hand, ask the solver for a hint, or watch it play; every position comes from the engine, and every solver answer is replayed by an independent checker.')),
    grid));
  return () => {
    timers.forEach(clearInterval);
    sources.forEach((s) => s.close());
  };
}

/** Streams a short solver game for `g` and loops it on the card's canvas. */
async function live(g, canvas, card, timers, sources) {
  const ctx = canvas.getContext('2d');
  const frames = [];
  let start = [];
  try {
    const p = await post(`/api/${g.name}/position`, { ...g.req.from, frames: false });
    frames.push(p.now.width && p.now.body ? { head: p.now.body[0], len: p.now.body.length, fruit: p.now.fruit } : p.now);
    start = p.now.start || [];
  } catch (_) {
    return;
  }
  const r = { ...g.req, max_moves: 60 };
  const src = new EventSource(`/api/${g.name}/auto?r=${encodeURIComponent(JSON.stringify(r))}`);
  sources.push(src);
  src.addEventListener('steps', (e) => { for (const s of JSON.parse(e.data).steps) frames.push(s.frame); card.dataset.frames = frames.length; });
  const stop = () => src.close();
  src.addEventListener('done', stop);
  src.addEventListener('failed', stop);
  src.onerror = stop;
  let k = 0;
  const show = () => {
    if (!frames.length) return;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    g.draw(ctx, frames[k], k, frames, start);
    card.dataset.shown = k;
    k = (k + 1) % frames.length;
  };
  show();
  timers.push(setInterval(show, 220));
}
