// 2048: play with arrows/WASD/swipe, ask the expectimax for a hint, let it play on (a
// server-sent stream of its moves), scrub the timeline, export and load records, share the URL.
import { post, postText, showError, h, setParams, download } from '/assets/app.js';

const DIRS = { ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R', w: 'U', s: 'D', a: 'L', d: 'R', W: 'U', S: 'D', A: 'L', D: 'R' };
const NAMES = { U: 'up ↑', D: 'down ↓', L: 'left ←', R: 'right →' };

/** Tiles of a board in the text form (`2 . . ./...`), row by row. */
function parseBoard(text) {
  return text.split('/').flatMap((row) => row.trim().split(/\s+/).map((c) => (c === '.' ? 0 : Number(c))));
}

export async function mount(root, params) {
  const st = {
    seed: Number.isFinite(Number(params.seed)) && params.seed !== undefined ? Number(params.seed) : Math.floor(Math.random() * 1e6),
    spawn: params.spawn !== undefined ? params.spawn : null, // a record's spawn seed, kept as text (u64)
    moves: (params.moves || '').toUpperCase(),
    k: 0,
    frames: [], // frames[i]: {tiles, score, board} after i moves, when known
    legal: [],
    moveStart: null,
    status: 'playing',
    auto: null,
    timer: null,
    busy: false,
    want: null,
  };
  st.k = params.k !== undefined ? Math.min(Number(params.k) || 0, st.moves.length) : st.moves.length;

  const grid = h('div', { class: 'g2048', testid: 'board', tabindex: 0, 'aria-label': '2048 board', 'data-settled': 'false' });
  const cells = Array.from({ length: 16 }, () => h('div', { class: 't' }));
  grid.append(...cells);
  const score = h('b', { testid: 'score' }, '0');
  const movesEl = h('b', { testid: 'moves' }, '0');
  const status = h('span', { class: 'status', testid: 'status' });
  const seedIn = h('input', { type: 'number', min: 0, value: st.seed, testid: 'seed', 'aria-label': 'seed' });
  const budget = h('select', { testid: 'budget', 'aria-label': 'search budget' },
    ...[['20000', 'quick (20k nodes)'], ['100000', 'fast (100k)'], ['500000', 'standard (500k)'], ['2000000', 'strong (2M)']]
      .map(([v, t]) => h('option', { value: v, selected: v === '100000' }, t)));
  const hintBox = h('div', { class: 'hint', testid: 'hint' });
  const slider = h('input', { type: 'range', min: 0, max: 0, value: 0, testid: 'timeline', 'aria-label': 'timeline' });
  const speed = h('select', { testid: 'speed', 'aria-label': 'playback speed' },
    ...[2, 5, 10, 30, 60].map((v) => h('option', { value: v, selected: v === 10 }, `${v} moves/s`)));
  const follow = h('input', { type: 'checkbox', checked: true, testid: 'follow', id: 'follow' });
  const autoState = h('span', { class: 'muted', testid: 'auto-state' });
  const share = h('a', { class: 'share', testid: 'share', href: '#' });
  const fileIn = h('input', { type: 'file', accept: '.json,application/json', testid: 'load', hidden: true });

  const btn = (label, testid, onclick, cls) => h('button', { testid, onclick, class: cls }, label);
  const bNew = btn('New game', 'new', () => newGame(Number(seedIn.value)), 'primary');
  const bRandom = btn('Random seed', 'random', () => newGame(Math.floor(Math.random() * 1e6)));
  const bUndo = btn('Undo', 'undo', () => goto(st.k - 1));
  const bRedo = btn('Redo', 'redo', () => goto(st.k + 1));
  const bHint = btn('Hint', 'hint-button', () => hint());
  const bAuto = btn('Auto ▶', 'auto', () => (st.auto ? stopAuto() : startAuto()));
  const bBack = btn('◀', 'step-back', () => { pause(); goto(st.k - 1); });
  const bPlay = btn('Play', 'play', () => (st.timer ? pause() : play()));
  const bFwd = btn('▶', 'step-forward', () => { pause(); goto(st.k + 1); });
  const bExport = btn('Export record', 'export', () => exportRecord());
  const bLoad = btn('Load record', 'load-button', () => fileIn.click());

  const panel = h('section', { class: 'panel' },
    h('h2', {}, '2048'),
    h('div', { class: 'stats' },
      h('div', { class: 'stat' }, h('small', {}, 'score'), score),
      h('div', { class: 'stat' }, h('small', {}, 'moves'), movesEl)),
    status,
    h('div', { class: 'row' }, h('label', {}, 'seed ', seedIn), bNew, bRandom),
    h('div', { class: 'row' }, bUndo, bRedo, bHint),
    hintBox,
    h('div', { class: 'row' }, bAuto, budget, h('label', { for: 'follow', class: 'muted' }, follow, ' follow')),
    autoState,
    h('div', { class: 'row' }, bBack, bPlay, bFwd, speed),
    h('div', { class: 'row' }, slider),
    h('div', { class: 'row' }, bExport, bLoad, fileIn),
    h('div', {}, h('span', { class: 'muted' }, 'Link to this position: '), share),
    h('p', { class: 'muted' }, 'Arrows or WASD move (swipe on a touch screen); H hints, Z/Y undo and redo, Space plays the timeline.'));
  root.append(h('div', {}, grid), panel);

  function where() {
    return st.spawn !== null ? { seed: 0, spawn_seed: String(st.spawn) } : { seed: st.seed };
  }
  function query() {
    return st.spawn !== null ? `spawn_seed=${st.spawn}` : `seed=${st.seed}`;
  }

  function draw(frame) {
    const { tiles } = frame;
    tiles.forEach((v, i) => {
      const c = cells[i];
      const was = Number(c.dataset.v || 0);
      c.dataset.v = v;
      c.textContent = v ? v : '';
      c.className = 't' + (v > 2048 ? ' big' : '') + (v >= 100 ? ` d${String(v).length}` : '') + (v && !was ? ' new' : '');
    });
    grid.dataset.board = frame.board;
    grid.dataset.moves = st.k;
    score.textContent = frame.score.toLocaleString('en-US');
    movesEl.textContent = st.k;
  }

  function chrome() {
    const live = !!st.auto;
    slider.max = st.moves.length;
    slider.value = st.k;
    bUndo.disabled = live || st.k === 0;
    bRedo.disabled = live || st.k >= st.moves.length;
    bHint.disabled = live || st.k < st.moves.length || st.status !== 'playing';
    bAuto.textContent = live ? 'Stop ■' : 'Auto ▶';
    bBack.disabled = st.k === 0;
    bFwd.disabled = st.k >= st.moves.length;
    bPlay.textContent = st.timer ? 'Pause' : 'Play';
    const params = st.spawn !== null ? { spawn: st.spawn, moves: st.moves } : { seed: st.seed, moves: st.moves };
    if (st.k < st.moves.length) params.k = st.k;
    setParams('2048', params);
    share.href = location.href;
    share.textContent = location.href.length > 90 ? location.href.slice(0, 87) + '…' : location.href;
  }

  function showStatus() {
    const end = st.k === st.moves.length;
    const text = !end ? `move ${st.k} of ${st.moves.length}` : st.status === 'playing' ? 'your move' : st.status === 'over' ? 'game over: no move is legal' : `ended (${st.status.replace('_', ' ')})`;
    status.textContent = text;
    status.classList.toggle('over', end && st.status !== 'playing');
  }

  // Fetches the position after `k` moves from the server (the latest request wins).
  async function load(k) {
    st.want = k;
    if (st.busy) return;
    st.busy = true;
    grid.dataset.settled = 'false';
    try {
      while (st.want !== null) {
        const want = st.want;
        st.want = null;
        const res = await post('/api/2048/position', { ...where(), moves: st.moves.slice(0, want) });
        st.frames[want] = { tiles: res.now.tiles, score: res.now.score, board: res.now.board };
        if (st.want === null) {
          st.k = want;
          st.legal = res.legal;
          grid.dataset.legal = res.legal.join('');
          if (want === st.moves.length) st.status = res.status;
          draw(st.frames[want]);
          if (st.moveStart !== null) {
            // From the key to the new board drawn: the hand move's round trip.
            grid.dataset.roundTrip = (performance.now() - st.moveStart).toFixed(2);
            st.moveStart = null;
          }
          showError('');
        }
      }
    } catch (e) {
      showError(e.message);
    } finally {
      st.busy = false;
      showStatus();
      chrome();
      grid.dataset.settled = 'true';
    }
  }

  function goto(k) {
    if (k < 0 || k > st.moves.length) return;
    hintBox.replaceChildren();
    if (st.frames[k] && k !== st.moves.length) {
      st.k = k;
      st.legal = null;
      draw(st.frames[k]);
      showStatus();
      chrome();
      return;
    }
    st.k = k;
    return load(k);
  }

  // Shows move `k`, having learnt first how the whole game stands (its status and legal moves).
  async function showAt(k) {
    await load(st.moves.length);
    if (k !== st.moves.length) await goto(k);
  }

  async function move(dir) {
    if (st.auto || st.busy) return;
    if (st.k === st.moves.length && st.status !== 'playing') return;
    const t0 = performance.now();
    const before = st.moves.slice(0, st.k);
    if (st.legal === null) {
      const probe = await post('/api/2048/position', { ...where(), moves: before }).catch((e) => (showError(e.message), null));
      if (!probe) return;
      st.legal = probe.legal;
    }
    if (!st.legal.includes(dir)) return;
    st.moves = before + dir;
    st.frames.length = st.k + 1;
    hintBox.replaceChildren();
    st.moveStart = t0;
    await load(st.k + 1);
  }

  async function hint() {
    hintBox.replaceChildren(h('span', { class: 'muted' }, 'searching…'));
    try {
      const r = await post('/api/2048/hint', { ...where(), moves: st.moves.slice(0, st.k), search: { budget: Number(budget.value) } });
      hintBox.replaceChildren(...r.values.flatMap((v) => [
        h('span', { class: v.dir === r.best ? 'best' : '' }, NAMES[v.dir]),
        h('span', { class: v.dir === r.best ? 'best' : '', 'data-dir': v.dir }, v.value.toFixed(1)),
        h('span', { class: 'muted' }, v.dir === r.best ? `best, depth ${r.depth}` : ''),
      ]), h('span', { class: 'muted', testid: 'hint-nodes' }, `${r.nodes.toLocaleString('en-US')} nodes`));
      hintBox.dataset.best = r.best || '';
    } catch (e) {
      hintBox.replaceChildren();
      showError(e.message);
    }
  }

  function startAuto() {
    pause();
    if (st.status !== 'playing' && st.k === st.moves.length) return;
    st.moves = st.moves.slice(0, st.k);
    st.frames.length = st.k + 1;
    const base = st.moves.length;
    const src = new EventSource(`/api/2048/auto?${query()}&moves=${st.moves}&budget=${budget.value}`);
    st.auto = src;
    autoState.textContent = 'starting…';
    chrome();
    src.addEventListener('queued', (e) => { autoState.textContent = `waiting for a solver: ${JSON.parse(e.data).ahead} ahead`; });
    src.addEventListener('step', (e) => {
      const s = JSON.parse(e.data);
      st.moves += s.action;
      st.frames[st.moves.length] = { tiles: parseBoard(s.state), score: s.score, board: s.state };
      autoState.textContent = `the expectimax is playing: move ${st.moves.length - base}`;
      if (follow.checked) {
        st.k = st.moves.length;
        draw(st.frames[st.k]);
        status.textContent = 'auto';
      }
      slider.max = st.moves.length;
      if (follow.checked) slider.value = st.k;
    });
    const end = (text) => {
      src.close();
      st.auto = null;
      autoState.textContent = text;
      showAt(follow.checked ? st.moves.length : st.k);
    };
    src.addEventListener('done', (e) => {
      const r = JSON.parse(e.data);
      end(`played ${r.played} moves (${r.setting}); the record replays`);
    });
    src.addEventListener('failed', (e) => { const r = JSON.parse(e.data); showError(r.error); end('stopped'); });
    src.onerror = () => { if (st.auto === src) end('the stream closed'); };
  }

  function stopAuto() {
    if (!st.auto) return;
    st.auto.close();
    st.auto = null;
    autoState.textContent = 'stopped';
    goto(st.moves.length);
  }

  function play() {
    if (st.k >= st.moves.length) goto(0);
    st.timer = setInterval(() => {
      if (st.k >= st.moves.length) return pause();
      if (!st.busy) goto(st.k + 1);
    }, 1000 / Number(speed.value));
    chrome();
  }
  function pause() {
    clearInterval(st.timer);
    st.timer = null;
    chrome();
  }

  async function exportRecord() {
    try {
      const text = await postText('/api/2048/record', { ...where(), moves: st.moves });
      download(`2048-${st.spawn !== null ? 'spawn-' + st.spawn : 'seed-' + st.seed}.json`, text);
      grid.dataset.exported = text;
    } catch (e) {
      showError(e.message);
    }
  }

  async function loadRecord(text) {
    try {
      // The record goes to the server as written: its seed may not fit a browser number.
      JSON.parse(text);
      const f = await post('/api/2048/frames', `{"record": ${text}}`);
      if (f.spawn_seed === null) throw new Error('record: it has no seed; the arcade replays seeded records');
      stopAuto();
      pause();
      st.spawn = f.spawn_seed;
      st.moves = f.moves;
      st.frames = f.frames.map((s) => ({ tiles: s.tiles, score: s.score, board: s.board }));
      st.k = 0;
      hintBox.replaceChildren();
      await showAt(0);
      autoState.textContent = `loaded a record of ${f.moves.length} moves, score ${f.score.toLocaleString('en-US')}`;
      showError('');
    } catch (e) {
      showError(e instanceof SyntaxError ? `record: not JSON (${e.message})` : e.message);
    }
  }
  fileIn.addEventListener('change', async () => { if (fileIn.files[0]) loadRecord(await fileIn.files[0].text()); fileIn.value = ''; });
  // Tests and bots can hand a record over without a file dialog.
  grid.loadRecord = loadRecord;

  function newGame(seed) {
    stopAuto();
    pause();
    st.seed = Number.isFinite(seed) ? seed : 0;
    seedIn.value = st.seed;
    st.spawn = null;
    st.moves = '';
    st.frames = [];
    st.status = 'playing';
    hintBox.replaceChildren();
    autoState.textContent = '';
    goto(0);
    grid.focus();
  }

  const onKey = (e) => {
    // Keys in a field, a slider or a menu are theirs, not moves.
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const dir = DIRS[e.key];
    if (dir) { e.preventDefault(); move(dir); return; }
    if (e.key === 'h' || e.key === 'H') hint();
    else if (e.key === 'z' || e.key === 'Z') goto(st.k - 1);
    else if (e.key === 'y' || e.key === 'Y') goto(st.k + 1);
    else if (e.key === ' ' && !(e.target instanceof HTMLButtonElement)) { e.preventDefault(); st.timer ? pause() : play(); }
  };
  document.addEventListener('keydown', onKey);
  let touch = null;
  grid.addEventListener('pointerdown', (e) => { touch = [e.clientX, e.clientY]; });
  grid.addEventListener('pointerup', (e) => {
    if (!touch) return;
    const dx = e.clientX - touch[0], dy = e.clientY - touch[1];
    touch = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 30) return;
    move(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'R' : 'L') : (dy > 0 ? 'D' : 'U'));
  });
  slider.addEventListener('input', () => { const k = Number(slider.value); pause(); goto(k); });
  seedIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') newGame(Number(seedIn.value)); });

  await showAt(st.k);
  grid.focus();
  return () => {
    stopAuto();
    pause();
    document.removeEventListener('keydown', onKey);
  };
}
