// What a new player meets first, end to end in Debian's Chromium: a
// leaderboard address shows the game it names (and only the board last
// picked), the home tells how each of this browser's matches stands,
// Stratego's setup is called a setup, the page loads with no failed
// request (its icon included), and rule sets and cards are named as their
// games declare them (Battle Line's cards and the legend's tactics from
// the glossary the server lists).
// The server and browser as harness.mjs starts them; a fresh database.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { holdBack, start } from './harness.mjs';

let h;
let base;
let listing;

before(async () => {
  // No request limit: the leaderboard test loads the page once per rule set.
  h = await start('newcomer', ['--client-rate', '0']);
  ({ base } = h);
  listing = await h.api('GET', '/api/games');
});

after(async () => {
  if (h) await h.stop();
});

// Each test's people leave with it: the tests of this file open more
// match pages than the server lets one address hold sockets.
afterEach(async () => {
  if (h) await h.leave();
});

const ready = (page, path) => h.ready(page, path);
const twoHumans = (game) => h.twoHumans(game);

async function post(path, token, body) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return res.json();
}

// The browser takes seat `seat` of match `id` (the token in the address's
// fragment, as a match made through the API is opened).
async function takeSeat(page, id, token) {
  await ready(page, `/m/${id}#token=${token}`);
  await page.waitForSelector('#match[data-id]', { timeout: 10000 });
}

test('a leaderboard address shows the game it names, in the page and its select', async () => {
  const page = await h.person();
  const asked = [];
  for (const g of listing.games) {
    asked.push([g.name, g.presets[0].spec, `${g.title}, ${g.presets[0].title}`]);
    for (const p of g.presets) asked.push([p.spec, p.spec, `${g.title}, ${p.title}`]);
  }
  assert.ok(asked.some(([q, spec]) => q === 'stratego' && spec === 'stratego(variant=classic)'));
  for (const [query, spec, title] of asked) {
    await ready(page, `/leaderboard?game=${encodeURIComponent(query)}`);
    await page.waitForSelector(`#leaderboard[data-game="${spec}"]`, { timeout: 10000 });
    assert.equal(await page.$eval('#board-game', (s) => s.value), spec, `the select agrees for ${query}`);
    assert.equal(await page.$eval('#board-game', (s) => s.selectedOptions[0].textContent), title);
    assert.equal(await page.textContent('#board-error'), '');
  }
  assert.deepEqual(page.errors, []);
});

test('a leaderboard address naming no game says so and shows no board', async () => {
  const page = await h.person();
  await ready(page, '/leaderboard?game=stratego');
  await page.waitForSelector('#leaderboard[data-game]', { timeout: 10000 });
  await ready(page, '/leaderboard?game=nope');
  await page.waitForFunction(() => document.querySelector('#board-error').textContent !== '', null, { timeout: 10000 });
  assert.match(await page.textContent('#board-error'), /no game.*nope/i);
  assert.equal(await page.$eval('#leaderboard', (l) => l.dataset.game), undefined, 'no game shown');
  assert.equal(await page.$eval('#board-game', (s) => s.value), '', 'the select names no game');
  assert.equal(await page.$$eval('#board-rows tr', (r) => r.length), 0);
  assert.deepEqual(page.errors, []);
});

test('a slow board of the game first shown adds no rows to the game picked after it', async () => {
  const page = await h.person();
  const first = listing.games[0].presets[0].spec;
  const picked = 'kuhn_poker(variant=classic)';
  assert.notEqual(first, picked);
  // The first game's board answers after the picked one's has been shown.
  const release = await holdBack(page, (url) => url.pathname === '/api/leaderboard' && url.searchParams.get('game') === first);
  // The page is not ready until its first board is shown: it is picked
  // from while that board is still asked for.
  const asked = page.waitForRequest((r) => r.url().includes('/api/leaderboard?'));
  await page.goto(`${base}/leaderboard?game=${encodeURIComponent(first)}`);
  await asked;
  await page.selectOption('#board-game', picked);
  await page.waitForSelector(`#leaderboard[data-game="${picked}"]`, { timeout: 10000 });
  const shown = await page.$$eval('#board-rows tr', (r) => r.map((t) => t.outerHTML));
  await release();
  assert.deepEqual(await page.$$eval('#board-rows tr', (r) => r.map((t) => t.outerHTML)), shown);
  assert.equal(await page.$eval('#leaderboard', (l) => l.dataset.game), picked);
  assert.equal(await page.$eval('#board-game', (s) => s.value), picked);
  assert.deepEqual(page.errors, []);
});

test("the home says of each of this browser's matches whether it was won, lost, drawn or runs", async () => {
  const page = await h.person();
  const kuhn = 'kuhn_poker(variant=classic)';
  // Won: the other seat resigns. Lost: this seat resigns. Drawn: both
  // agree. Running: nothing played.
  const won = await twoHumans(kuhn);
  await post(`/api/matches/${won.id}/resign`, won.tokens[1]);
  const lost = await twoHumans(kuhn);
  await post(`/api/matches/${lost.id}/resign`, lost.tokens[1]);
  const drawn = await twoHumans(kuhn);
  await post(`/api/matches/${drawn.id}/draw`, drawn.tokens[0], { offer: true });
  await post(`/api/matches/${drawn.id}/draw`, drawn.tokens[1], { offer: true });
  const running = await twoHumans(kuhn);
  await takeSeat(page, won.id, won.tokens[0]);
  await takeSeat(page, lost.id, lost.tokens[1]);
  await takeSeat(page, drawn.id, drawn.tokens[1]);
  await takeSeat(page, running.id, running.tokens[0]);
  await ready(page, '/');
  await page.waitForFunction(() => [...document.querySelectorAll('#mine li')].every((li) => li.dataset.result), null, { timeout: 10000 });
  const rows = await page.$$eval('#mine li', (ls) => ls.map((li) => [Number(li.dataset.id), li.dataset.result, li.querySelector('.result').textContent]));
  assert.deepEqual(rows.map(([id, result]) => [id, result]), [
    [running.id, 'running'], [drawn.id, 'drawn'], [lost.id, 'lost'], [won.id, 'won'],
  ]);
  for (const [, result, text] of rows) assert.match(text, new RegExp(`^${result}`, 'i'), 'said in words');
  assert.deepEqual(page.errors, []);
});

test("Stratego's setup is called a setup in the status line, for the seat and its opponent", async () => {
  const m = await twoHumans('stratego(variant=classic)');
  const first = await h.person();
  const second = await h.person();
  await takeSeat(first, m.id, m.tokens[0]);
  await takeSeat(second, m.id, m.tokens[1]);
  const view = await h.api('GET', `/api/matches/${m.id}`);
  assert.equal(view.to_move, 0, 'the first seat sets up first');
  await first.waitForFunction(() => document.querySelector('#status').textContent === 'Set up your army.', null, { timeout: 10000 });
  await second.waitForFunction(() => document.querySelector('#status').textContent === 'Your opponent is setting up.', null, { timeout: 10000 });
  assert.deepEqual([first.errors, second.errors], [[], []]);
});

// A rule set has one name for people: the title its preset declares, in
// the match's title, the drawing's status line, the engine's text (the
// terminal's) and the setups the editor starts from.
test("Stratego's rule set is named by its preset's title in the title, status line and engine text", async () => {
  const stratego = listing.games.find((g) => g.name === 'stratego');
  const page = await h.person();
  for (const preset of stratego.presets) {
    const m = await twoHumans(preset.spec);
    await takeSeat(page, m.id, m.tokens[0]);
    await page.waitForSelector('#board .st-info', { timeout: 10000 });
    assert.equal(await page.textContent('#title'), `Stratego, ${preset.title} · You play first`);
    assert.match(await page.$eval('#board .st-info', (p) => p.textContent), new RegExp(`^Setup \\(${preset.title}\\):`));
    assert.match(await page.$eval('#observation', (p) => p.textContent), new RegExp(`^P0 view: ${preset.title} setup`));
    const setup = await (await fetch(`${base}/api/setups?game=${encodeURIComponent(preset.spec)}&kind=random&seed=1`)).json();
    assert.equal(setup.title, `Stratego, ${preset.title}`);
    const names = new Set(setup.army.map((k) => k.piece));
    assert.ok(setup.pieces.length === 40 && setup.pieces.every((p) => names.has(p)), 'pieces by name');
  }
  assert.deepEqual(page.errors, []);
});

test('the page loads with no failed request: its icon is served', async () => {
  const page = await h.person();
  const failed = [];
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  page.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  await ready(page, '/');
  const icon = await page.$eval('link[rel="icon"]', (l) => l.href);
  const res = await fetch(icon);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/svg+xml');
  assert.match(await res.text(), /^<svg /);
  const ico = await fetch(`${base}/favicon.ico`);
  assert.equal(ico.status, 200, '/favicon.ico, asked by browsers that ignore the link');
  assert.equal(ico.headers.get('content-type'), 'image/svg+xml');
  await page.waitForTimeout(300);
  assert.deepEqual(failed, []);
  assert.deepEqual(consoleErrors, []);
});

// Whether Battle Line card code `code` is a tactics card (a troop card is
// a colour letter and its value).
const isTactic = (code) => !/^[ROYGBP]\d+$/.test(code || '');

test("Battle Line's move log names a tactics card as the game does, not by its code", async () => {
  const m = await twoHumans('battleline');
  const view = async (token) => (await fetch(`${base}/api/matches/${m.id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })).json();
  // Both seats play tactics cards whenever they can and draw from the
  // tactics deck, until one is played.
  let step = null;
  for (let n = 0; n < 400 && step === null; n++) {
    const seat = (await view(null)).to_move;
    const v = await view(m.tokens[seat]);
    const played = v.log.find((e) => e.view && e.view.type === 'public' && e.view.action.type === 'play' && isTactic(e.view.action.card));
    if (played) {
      step = played.step;
      break;
    }
    const wanted = v.legal.find((a) => (a.action.type === 'play' && isTactic(a.action.card)) || a.action.deck === 'tactics');
    const action = wanted || v.legal[n % v.legal.length];
    await post(`/api/matches/${m.id}/actions`, m.tokens[seat], { action: action.id });
  }
  assert.notEqual(step, null, 'a tactics card was played');
  const page = await h.person();
  await takeSeat(page, m.id, m.tokens[0]);
  await page.waitForFunction((n) => document.querySelector('#log').children.length > n, step, { timeout: 10000 });
  const entry = (await view(m.tokens[0])).log[step];
  const line = await page.$eval('#log', (ol, n) => ol.children[n].textContent, step);
  assert.equal(line, entry.told, 'the line is what the game tells the seat');
  const code = entry.view.action.card;
  assert.ok(entry.text.split(/\s+/).includes(code), `${entry.text}: the action's text names the card by its code`);
  assert.ok(!line.split(/\s+/).includes(code), `${line}: the card by its name, not ${code}`);
  assert.deepEqual(page.errors, []);
});

test("Battle Line's cards and legend take their names from the game's glossary", async () => {
  const bl = listing.games.find((g) => g.name === 'battleline');
  const declared = new Map(bl.glossary.map((t) => [t.code, t]));
  assert.deepEqual(declared.get('C8'), { code: 'C8', name: 'Companion Cavalry', group: 'tactic' });
  assert.deepEqual(declared.get('R7'), { code: 'R7', name: 'Red 7', group: 'troop' });
  // The page shows what the listing declares: marked names prove that it
  // keeps no table of its own.
  const page = await h.person();
  await page.route('**/api/games', async (route) => {
    const response = await route.fetch();
    const json = await response.json();
    // The game's glossary and each preset's (the page reads its preset's).
    const bl = json.games.find((g) => g.name === 'battleline');
    for (const glossary of [bl.glossary, ...bl.presets.map((p) => p.glossary)]) {
      for (const t of glossary) t.name = `${t.name} (declared)`;
    }
    await route.fulfill({ response, json });
  });
  const m = await twoHumans('battleline');
  await takeSeat(page, m.id, m.tokens[0]);
  await page.waitForSelector('.bl-hand [data-card]', { timeout: 10000 });
  const hand = await page.$$eval('.bl-hand [data-card]', (cards) => cards.map((c) => [c.dataset.card, c.getAttribute('aria-label')]));
  assert.ok(hand.length > 0);
  for (const [code, label] of hand) assert.equal(label, `${declared.get(code).name} (declared)`, code);
  const legend = await page.$$eval('#legend b', (bs) => bs.map((b) => b.textContent));
  for (const code of ['AL', 'DA', 'C8', 'SB', 'FOG', 'MUD', 'SCT', 'RDP', 'DES', 'TRT']) {
    assert.ok(legend.includes(`${declared.get(code).name} (declared)`), `${code} in ${legend}`);
  }
  assert.deepEqual(page.errors, []);
});

test("the home offers each game's strongest bot by default, named plainly", async () => {
  const page = await h.person();
  await ready(page, '/');
  for (const g of listing.games) {
    await page.selectOption('#game', g.presets[0].spec);
    const [label, seat] = await page.$eval('#opponent', (s) => [s.selectedOptions[0].textContent, s.value]);
    assert.equal(label, 'Computer, strong', g.name);
    assert.equal(seat, g.bots.includes('bot:expert') ? 'bot:expert' : 'bot:ismcts:200', g.name);
  }
  // A choice made stays when the game changes.
  await page.selectOption('#opponent', 'bot:random');
  await page.selectOption('#game', listing.games[1].presets[0].spec);
  assert.equal(await page.$eval('#opponent', (s) => s.value), 'bot:random');
  assert.deepEqual(page.errors, []);
});
