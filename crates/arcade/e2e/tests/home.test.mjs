// The home page: every game has a card with a line about it and a live board that its solver
// plays; a card opens its game; the tab's title follows the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { env, shots } from '../lib.mjs';

const GAMES = ['samegame', 'tetris', 'drop7', '2048', 'snake'];

test('home: a card per game, each board played live, and a card opens its game', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1200, height: 760 } });
  page.on('pageerror', (e) => { throw e; });
  const t0 = Date.now();
  await page.goto(env.url);
  await page.waitForSelector('[data-testid=home]');
  console.log(`home page interactive in ${Date.now() - t0} ms`);
  assert.equal(await page.title(), 'bitarcade: five grid puzzles');
  for (const g of GAMES) {
    const card = `[data-testid=card-${g}]`;
    assert.ok((await page.textContent(card)).length > 40, g);
    // The solver's game streams in and the board moves through it.
    await page.waitForFunction((c) => Number(document.querySelector(c).dataset.frames || 0) > 5, card, { timeout: 30000 });
    const a = await page.getAttribute(card, 'data-shown');
    await page.waitForFunction(([c, a]) => document.querySelector(c).dataset.shown !== a, [card, a]);
  }
  await page.screenshot({ path: join(shots, 'arcade-home.png') });
  await page.click('[data-testid=card-snake]');
  await page.waitForSelector('[data-testid=board][data-settled=true]');
  assert.match(page.url(), /#\/snake/);
  assert.equal(await page.title(), 'Snake · bitarcade');
  await page.click('[data-testid=home-link]');
  await page.waitForSelector('[data-testid=home]');
  // A game's name without the # is its page.
  await page.goto(env.url + '2048');
  await page.waitForSelector('[data-testid=board][data-settled=true]');
  assert.match(page.url(), /#\/2048(\?|$)/);
  await page.close();
});
