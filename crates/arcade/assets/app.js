// The arcade shell: routing by the URL hash, the JSON calls, errors, and the pool badge.
// Each game is a module with `mount(root, params)` that returns an `unmount()`.

const GAMES = { samegame: '/assets/samegame.js', '2048': '/assets/2048.js', snake: '/assets/snake.js', drop7: '/assets/drop7.js', tetris: '/assets/tetris.js' };

/** `body` as JSON, with seeds held as decimal strings (past 2^53 a browser's numbers lose
 * digits) written as the exact numbers the server reads. */
export function exact(body) {
  return JSON.stringify(body).replace(/"(spawn_seed|seed)":"(\d+)"/g, '"$1":$2');
}

/** POSTs `body` as JSON to `path`; a non-2xx answer throws its one-line message. */
export async function post(path, body, signal) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Seeds past 2^53 travel as decimal strings in the page and as exact numbers on the wire.
    body: typeof body === 'string' ? body : exact(body),
    signal,
  });
  const data = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
  if (!res.ok) throw new Error(data.error || `${res.status}`);
  return data;
}

/** POSTs like `post` and returns the answer's text (a record to save, exactly as sent). */
export async function postText(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: exact(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error((() => { try { return JSON.parse(text).error; } catch (_) { return text; } })());
  return text;
}

/** Shows a one-line error (or hides it with no message). */
export function showError(message) {
  const el = document.querySelector('[data-testid=error]');
  el.textContent = message || '';
  el.hidden = !message;
}

/** `h('button', {class: 'primary', onclick}, 'text')`: a small element builder. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'testid') el.dataset.testid = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c);
  return el;
}

/** Replaces the hash's query without adding a history entry (the position's URL). */
export function setParams(game, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== '' && v !== undefined && v !== null) q.set(k, v);
  const hash = `#/${game}?${q}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

/** Calls `go('U' | 'D' | 'L' | 'R')` for a swipe over `el` (at least `min` pixels). */
export function swipe(el, go, min = 24) {
  let touch = null;
  el.addEventListener('pointerdown', (e) => { touch = [e.clientX, e.clientY]; });
  el.addEventListener('pointerup', (e) => {
    if (!touch) return;
    const dx = e.clientX - touch[0], dy = e.clientY - touch[1];
    touch = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < min) return;
    go(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'R' : 'L') : (dy > 0 ? 'D' : 'U'));
  });
}

/** A download of `text` as `name`. */
export function download(name, text) {
  const a = h('a', { href: URL.createObjectURL(new Blob([text], { type: 'application/json' })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

/** The page of each route: the home page, then one per game. */
const PAGES = { home: '/assets/home.js', ...GAMES };

function parseHash() {
  const m = location.hash.match(/^#\/([^?]*)\??(.*)$/);
  const game = m && PAGES[m[1]] ? m[1] : 'home';
  return { game, params: Object.fromEntries(new URLSearchParams(m ? m[2] : '')) };
}

let current = null;
async function route() {
  const { game, params } = parseHash();
  if (current && current.game === game && current.keep) return;
  if (current) current.unmount();
  showError('');
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.dataset.game === game));
  const root = document.getElementById('game');
  root.replaceChildren();
  const link = document.querySelector(`nav a[data-game="${game}"]`);
  document.title = link ? `${link.textContent} · bitarcade` : 'bitarcade: five grid puzzles';
  const mod = await import(PAGES[game]);
  current = { game, keep: true, unmount: await mod.mount(root, params) };
}

async function poolBadge() {
  try {
    const r = await fetch('/api/health').then((r) => r.json());
    document.querySelector('[data-testid=pool]').textContent =
      `solvers ${r.pool.running}/${r.pool.workers}` + (r.pool.queued ? `, ${r.pool.queued} waiting` : '');
  } catch (_) { /* the badge is only a hint */ }
}

window.addEventListener('hashchange', () => { if (current) current.keep = false; route(); });
route();
poolBadge();
setInterval(poolBadge, 2000);

/** The link's parameter `name`, read by `read(text)` (which answers `undefined` for a bad
 * value); absent, `fallback` quietly. A bad value is never replaced silently: a note for
 * the page's error line is pushed onto `notes`, saying what was expected and what is used. */
export function linkParam(params, notes, name, read, fallback, expected) {
  const v = params[name];
  if (v === undefined || v === '') return fallback;
  const got = read(v);
  if (got !== undefined) return got;
  const shown = v.length > 24 ? `${v.slice(0, 21)}…` : v;
  const used = fallback === null || fallback === '' || typeof fallback === 'object' ? 'the default' : fallback;
  notes.push(`the link's ${name}=${shown} is not ${expected}: using ${used}`);
  return fallback;
}
