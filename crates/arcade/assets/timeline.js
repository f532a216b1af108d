// What every game page shares: the moves so far and a frame per move, hand moves through the
// server, undo/redo, a solver playing on as a server-sent stream, the timeline (pause, step,
// speed, slider), records out and in, and the position's URL.
//
// A game hands `controller` an adapter:
//   name, title, board (the board element), sep (between moves in the URL: '' for one letter each)
//   fetch(moves, all) -> {now, frames?, legal, over, won, statusText}: the position after `moves`
//     (an array of move strings), with every frame from the start when `all`
//   draw(frame, k): draws frame k (ctl.frames holds the others); text(frame): the board as text
//   urlParams(): the game's identity in the URL; autoUrl(moves): the stream of a solver playing on
//   stream: {eventName: (data) -> [[move, frame], ...]}, doneText(data); a `progress` event's
//     `message` is shown as it comes; playOut: the stream is a plan to watch from its first move
//   exportRecord(moves) -> text; loadRecord(text) -> {moves, frames, message}
//   autoLabel: the auto button's word ('Auto'); setup, autoControls, extras, stats: elements for the panel; help: the keys, in words
//   keys: {key: move} for the keys that play a move; key(e) -> true when the game took any other
//   key (optional); hint(): asks for a hint (optional)
//   linkNotes: what the game could not read in the link (each said on the error line at start)
//   bitsOf(moves) -> element: the "bits" view of the position after `moves`, drawn from the
//     words of the server's snapshot (optional; B or the Bits button shows it under the board)
import { showError, h, setParams, download } from '/assets/app.js';

export function controller(params, g) {
  const split = (s) => (g.sep === '' ? [...(s || '')] : (s || '').split(g.sep).filter(Boolean));
  const st = { moves: split(params.moves), k: 0, frames: [], legal: [], over: false, statusText: '', auto: null, timer: null, busy: false, moveStart: null };
  // The link's move to show: a whole number from 0 to the moves' count (anything else is said).
  let want = null;
  const linkNotes = [];
  if (params.k !== undefined) {
    const k = Number(params.k);
    if (!/^\d+$/.test(params.k) || k > st.moves.length) linkNotes.push(`the link's k=${params.k} is not a move from 0 to ${st.moves.length}: showing the last`);
    else want = k;
  }
  const board = g.board;
  board.dataset.settled = 'false';

  const score = h('b', { testid: 'score', 'aria-live': 'polite' }, '0');
  const movesEl = h('b', { testid: 'moves' }, '0');
  const status = h('span', { class: 'status', testid: 'status', role: 'status', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', min: 0, max: 0, value: 0, testid: 'timeline', 'aria-label': 'timeline' });
  const speed = h('select', { testid: 'speed', 'aria-label': 'playback speed' },
    ...[2, 5, 10, 30, 60, 200].map((v) => h('option', { value: v, selected: v === (g.speed || 10) }, `${v} moves/s`)),
    h('option', { value: 'max' }, 'as fast as it comes'));
  const follow = h('input', { type: 'checkbox', checked: true, testid: 'follow', id: `follow-${g.name}` });
  const autoState = h('span', { class: 'muted', testid: 'auto-state' });
  const share = h('a', { class: 'share', testid: 'share', href: '#' });
  const fileIn = h('input', { type: 'file', accept: '.json,application/json', testid: 'load', hidden: true });
  const btn = (label, testid, onclick, cls) => h('button', { testid, onclick, class: cls }, label);
  const bUndo = btn('Undo', 'undo', () => goto(st.k - 1));
  const bRedo = btn('Redo', 'redo', () => goto(st.k + 1));
  const bHint = g.hint ? btn('Hint', 'hint-button', () => g.hint()) : null;
  const autoLabel = `${g.autoLabel || 'Auto'} ▶`;
  const bAuto = btn(autoLabel, 'auto', () => (st.auto ? stopAuto() : startAuto()));
  const bBack = btn('◀', 'step-back', () => { pause(); goto(st.k - 1); });
  const bPlay = btn('Play', 'play', () => (st.timer ? pause() : play()));
  const bFwd = btn('▶', 'step-forward', () => { pause(); goto(st.k + 1); });
  const bExport = btn('Export record', 'export', () => exportRecord());
  // The bits view: the position as the engine holds it, fetched for the move on screen.
  const bitsEl = h('section', { class: 'bits', testid: 'bits', hidden: true, 'aria-label': 'the position as the engine holds it' });
  const bits = { on: false, busy: false, want: -1 };
  const bBits = g.bitsOf ? btn('Bits', 'bits-toggle', () => toggleBits()) : null;
  if (bBits) bBits.setAttribute('aria-pressed', 'false');
  const bLoad = btn('Load record', 'load-button', () => fileIn.click());

  const panel = h('section', { class: 'panel' },
    h('h2', {}, g.title),
    h('div', { class: 'stats' },
      h('div', { class: 'stat' }, h('small', {}, 'score'), score),
      h('div', { class: 'stat' }, h('small', {}, 'moves'), movesEl),
      ...(g.stats || []).map(([label, el]) => h('div', { class: 'stat' }, h('small', {}, label), el))),
    status,
    ...(g.setup || []),
    h('div', { class: 'row' }, bUndo, bRedo, bHint, bBits),
    ...(g.extras || []),
    h('div', { class: 'row' }, bAuto, ...(g.autoControls || []), h('label', { for: follow.id, class: 'muted' }, follow, ' follow')),
    autoState,
    h('div', { class: 'row' }, bBack, bPlay, bFwd, speed),
    h('div', { class: 'row' }, slider),
    h('div', { class: 'row' }, bExport, bLoad, fileIn),
    h('div', {}, h('span', { class: 'muted' }, 'Link to this position: '), share),
    h('p', { class: 'muted' }, g.help));

  const atEnd = () => st.k === st.moves.length;
  const joined = (m = st.moves) => m.join(g.sep);

  function draw() {
    const f = st.frames[st.k];
    if (!f) return;
    g.draw(f, st.k);
    board.dataset.board = g.text(f, st.k);
    board.dataset.moves = st.k;
    score.textContent = Number(f.score).toLocaleString('en-US');
    movesEl.textContent = st.k;
    updateBits();
  }

  // At most one request in flight: the newest move on screen is fetched when it returns.
  async function updateBits() {
    if (!bits.on) return;
    bits.want = st.k;
    if (bits.busy) return;
    bits.busy = true;
    bitsEl.dataset.settled = 'false';
    const k = st.k;
    try {
      const el = await g.bitsOf(st.moves.slice(0, k));
      if (bits.on) {
        bitsEl.replaceChildren(h('h3', {}, `Bits: move ${k}`), el);
        bitsEl.dataset.k = k;
      }
    } catch (e) {
      bitsEl.replaceChildren(h('p', { class: 'muted' }, `bits: ${e.message}`));
    } finally {
      bits.busy = false;
    }
    if (bits.on && bits.want !== k) updateBits();
    else bitsEl.dataset.settled = 'true';
  }

  function toggleBits(on = !bits.on) {
    if (!g.bitsOf) return;
    bits.on = on;
    bitsEl.hidden = !on;
    bBits.setAttribute('aria-pressed', String(on));
    bBits.classList.toggle('on', on);
    if (!bitsEl.isConnected) board.insertAdjacentElement('afterend', bitsEl);
    if (on) updateBits();
    else bitsEl.replaceChildren();
    chrome();
  }

  // The address and the share link follow the board, after the frame that draws it: the
  // browser's history update is the slowest step of a move (and is throttled when a live run
  // calls it many times a second), and the board need not wait for it. Only the newest counts.
  let linkWanted = null;
  function linkLater(p) {
    const first = linkWanted === null;
    linkWanted = p;
    if (!first) return;
    requestAnimationFrame(() => setTimeout(() => {
      setParams(g.name, linkWanted);
      linkWanted = null;
      share.href = location.href;
      share.textContent = location.href.length > 90 ? location.href.slice(0, 87) + '…' : location.href;
      // The page is settled once its address says what the board shows.
      if (board.dataset.settled === 'link') board.dataset.settled = 'true';
    }, 0));
  }

  function chrome() {
    const live = !!st.auto;
    slider.max = st.moves.length;
    slider.value = st.k;
    bUndo.disabled = live || st.k === 0;
    bRedo.disabled = live || atEnd();
    if (bHint) bHint.disabled = live || st.over && atEnd();
    board.setAttribute('aria-busy', live ? 'true' : 'false');
    bAuto.textContent = live ? 'Stop ■' : autoLabel;
    bBack.disabled = st.k === 0;
    bFwd.disabled = atEnd();
    bPlay.textContent = st.timer ? 'Pause' : 'Play';
    const p = { ...g.urlParams(), moves: joined() };
    if (!atEnd()) p.k = st.k;
    if (bits.on) p.bits = 1;
    linkLater(p);
    const end = atEnd();
    status.textContent = live ? `auto: move ${st.k} of ${st.moves.length}` : !end ? `move ${st.k} of ${st.moves.length}` : st.statusText;
    status.classList.toggle('over', end && st.over && !st.won);
    status.classList.toggle('won', end && st.won);
    board.dataset.legal = end && !live ? st.legal.join(g.sep === '' ? '' : ' ') : '';
  }

  // Asks the server how the game stands after all its moves (every frame too, with `all`).
  async function refresh(all) {
    st.busy = true;
    board.dataset.settled = 'false';
    try {
      const r = await g.fetch(st.moves, all);
      if (all) st.frames = r.frames;
      st.frames[st.moves.length] = r.now;
      st.legal = r.legal;
      st.over = r.over;
      st.won = !!r.won;
      st.statusText = r.statusText;
      showError('');
      return true;
    } catch (e) {
      showError(e.message);
      return false;
    } finally {
      st.busy = false;
    }
  }

  function settle() {
    draw();
    chrome();
    board.dataset.settled = linkWanted === null ? 'true' : 'link';
  }

  function goto(k) {
    if (k < 0 || k > st.moves.length || !st.frames[k]) return;
    st.k = k;
    g.clear?.();
    settle();
  }

  // A hand move: from the position on screen (a move in the past starts a new line of play).
  async function move(m) {
    if (st.auto || st.busy) return;
    const t0 = performance.now();
    if (!atEnd()) {
      pause();
      const keep = st.moves.slice(0, st.k);
      st.moves = keep;
      st.frames.length = st.k + 1;
      if (!(await refresh(false))) return;
    }
    if (st.over || !st.legal.includes(m)) return;
    const before = st.moves.slice();
    st.moves.push(m);
    g.clear?.();
    if (await refresh(false)) {
      st.k = st.moves.length;
      settle();
      board.dataset.roundTrip = (performance.now() - t0).toFixed(2);
    } else {
      st.moves = before;
      st.frames.length = before.length + 1;
      settle();
    }
  }

  function startAuto() {
    pause();
    if (st.over && atEnd()) return;
    st.moves = st.moves.slice(0, st.k);
    st.frames.length = st.k + 1;
    const base = st.moves.length;
    const src = new EventSource(g.autoUrl(st.moves));
    st.auto = src;
    autoState.textContent = 'starting…';
    g.clear?.();
    chrome();
    src.addEventListener('queued', (e) => { autoState.textContent = `waiting for a solver: ${JSON.parse(e.data).ahead} ahead`; });
    src.addEventListener('progress', (e) => { autoState.textContent = `${g.solverName()}: ${JSON.parse(e.data).message}`; });
    // With follow on, the board steps through the streamed moves at the timeline's speed
    // ("as fast as it comes": straight to the newest); the link follows the board.
    let chase = null;
    const step = () => {
      if (speed.value === 'max') st.k = st.moves.length;
      else if (st.k < st.moves.length) st.k += 1;
      if (!st.auto && st.k >= st.moves.length) {
        clearInterval(chase);
        chase = null;
        st.chase = null;
        settle();
        return;
      }
      draw();
      chrome();
    };
    const chasing = () => {
      if (chase || !follow.checked || g.playOut) return;
      chase = setInterval(step, speed.value === 'max' ? 50 : 1000 / Number(speed.value));
      st.chase = chase;
    };
    for (const [name, take] of Object.entries(g.stream)) {
      src.addEventListener(name, (e) => {
        for (const [m, f] of take(JSON.parse(e.data))) {
          st.moves.push(m);
          st.frames[st.moves.length] = f;
        }
        autoState.textContent = `${g.solverName()} is playing: move ${st.moves.length - base}`;
        chasing();
        slider.max = st.moves.length;
        slider.value = st.k;
      });
    }
    const end = async (text) => {
      src.close();
      st.auto = null;
      autoState.textContent = text;
      const k = st.k;
      await refresh(false);
      st.k = Math.min(k, st.moves.length);
      if (chase && follow.checked && speed.value !== 'max' && st.k < st.moves.length) {
        // Still catching up with the solver's moves: the board settles at the end.
        board.dataset.settled = 'false';
        chrome();
        return;
      }
      clearInterval(chase);
      chase = null;
      st.chase = null;
      if (follow.checked && !g.playOut) st.k = st.moves.length;
      settle();
      // A plan is watched from where it starts, at the timeline's speed.
      if (g.playOut && follow.checked && st.moves.length > base) play();
    };
    src.addEventListener('done', (e) => end(g.doneText(JSON.parse(e.data))));
    src.addEventListener('failed', (e) => { showError(JSON.parse(e.data).error); end('stopped'); });
    src.onerror = () => { if (st.auto === src) end('the stream closed'); };
  }

  function stopAuto() {
    clearInterval(st.chase);
    st.chase = null;
    if (!st.auto) return;
    st.auto.close();
    st.auto = null;
    autoState.textContent = 'stopped';
    refresh(false).then(() => { st.k = st.moves.length; settle(); });
  }

  function play() {
    if (atEnd()) goto(0);
    const rate = speed.value === 'max' ? 200 : Number(speed.value);
    st.timer = setInterval(() => (atEnd() ? pause() : goto(st.k + 1)), 1000 / rate);
    chrome();
  }
  function pause() {
    clearInterval(st.timer);
    st.timer = null;
    chrome();
  }

  async function exportRecord() {
    try {
      const text = await g.exportRecord(joined());
      // The file is named by the game's identity: short settings only (a Sequence stream or a
      // board would make a name hundreds of characters long), in characters every disk takes.
      const parts = Object.values(g.urlParams()).map(String).filter((v) => v.length <= 24).map((v) => v.replace(/[^A-Za-z0-9.+-]/g, '_'));
      const name = `${[g.name, ...parts, `${st.moves.length}moves`].join('-')}.json`;
      download(name, text);
      board.dataset.exportName = name;
      board.dataset.exported = text;
    } catch (e) {
      showError(e.message);
    }
  }

  async function loadRecord(text) {
    try {
      JSON.parse(text);
      const r = await g.loadRecord(text);
      stopAuto();
      pause();
      st.moves = r.moves;
      await refresh(true);
      st.k = 0;
      settle();
      autoState.textContent = r.message;
      showError('');
    } catch (e) {
      showError(e instanceof SyntaxError ? `record: not JSON (${e.message})` : e.message);
    }
  }
  fileIn.addEventListener('change', async () => { if (fileIn.files[0]) loadRecord(await fileIn.files[0].text()); fileIn.value = ''; });
  // Tests and bots can hand a record over without a file dialog.
  board.loadRecord = loadRecord;

  // A new game: the adapter has set its identity; the moves start again.
  async function reset(moves = []) {
    stopAuto();
    pause();
    st.moves = moves;
    st.frames = [];
    autoState.textContent = '';
    g.clear?.();
    if (await refresh(true)) st.k = st.moves.length;
    settle();
    board.focus();
  }

  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // A field's keys are its own. A menu left focused gives its arrows and the game's keys to
    // the game (an arrow must not change the board size behind the player's back).
    if ((e.target instanceof HTMLInputElement && e.target.type !== 'checkbox' && e.target.type !== 'range') || e.target instanceof HTMLTextAreaElement) return;
    if (e.target instanceof HTMLInputElement && e.target.type === 'range' && e.key !== ' ') return;
    if (e.target instanceof HTMLSelectElement) {
      if (!(g.keys?.[e.key] || e.key.startsWith('Arrow'))) return;
      e.preventDefault();
      e.target.blur();
      board.focus();
    }
    const m = g.keys?.[e.key];
    if (m || (g.key && g.key(e))) {
      e.preventDefault();
      if (m) move(m);
      return;
    }
    if ((e.key === 'h' || e.key === 'H') && g.hint) g.hint();
    else if ((e.key === 'b' || e.key === 'B') && g.bitsOf) toggleBits();
    else if (e.key === 'z' || e.key === 'Z') goto(st.k - 1);
    else if (e.key === 'y' || e.key === 'Y') goto(st.k + 1);
    else if (e.key === ' ') {
      // Space plays the timeline wherever the focus is (Enter still presses a button).
      e.preventDefault();
      st.timer ? pause() : play();
    }
  };
  document.addEventListener('keydown', onKey);
  slider.addEventListener('input', () => { const k = Number(slider.value); pause(); goto(k); });

  return {
    panel,
    bitsEl,
    st,
    move,
    goto,
    reset,
    atEnd,
    live: () => !!st.auto,
    moves: () => st.moves.slice(0, st.k),
    // Loads the game of the URL and shows its move `k`.
    async start() {
      if (!(await refresh(true))) {
        // A bad link: show the moves before the one the server refused, and say which.
        const msg = document.querySelector('[data-testid=error]').textContent;
        const bad = Number((msg.match(/\(move (\d+)\)/) || [])[1]);
        if (bad >= 1 && bad <= st.moves.length) {
          st.moves = st.moves.slice(0, bad - 1);
          st.frames = [];
          if (await refresh(true)) linkNotes.unshift(`this link's ${msg}; showing the ${bad - 1} moves before it`);
        }
      }
      if (st.frames.length) st.k = want === null ? st.moves.length : Math.min(want, st.moves.length);
      if (params.bits === '1' && g.bitsOf) toggleBits(true);
      settle();
      linkNotes.unshift(...(g.linkNotes || []));
      if (linkNotes.length) showError(linkNotes.join('; '));
      board.focus();
    },
    unmount() {
      stopAuto();
      pause();
      document.removeEventListener('keydown', onKey);
    },
  };
}
