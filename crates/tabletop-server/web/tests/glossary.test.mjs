// The names of the games' codes come from the games' declarations (the
// glossary of each rule set, listed per preset by /api/games and sent
// with a match's view), never from tables of the page's own: Stratego's
// pieces (name, sign, power) in the legend, the setup editor and the
// board, card war's lines, guards and prayers. Names marked in the served
// listing show marked on the page. A match under rules no preset
// declares takes its pieces from its view.
// The server and browser as harness.mjs starts them; a fresh database.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

let h;
let base;
let listing;

before(async () => {
  h = await start('glossary', ['--client-rate', '0']);
  ({ base } = h);
  listing = await h.api('GET', '/api/games');
});

after(async () => {
  if (h) await h.stop();
});

const ready = (page, path) => h.ready(page, path);
const twoHumans = (game) => h.twoHumans(game);

async function seatView(id, token) {
  const res = await fetch(`${base}/api/matches/${id}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return res.json();
}

async function play(id, token, action) {
  const res = await fetch(`${base}/api/matches/${id}/actions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}

async function takeSeat(page, id, token) {
  await ready(page, `/m/${id}#token=${token}`);
  await page.waitForSelector('#match[data-id]', { timeout: 10000 });
}

const gameOf = (json, name) => json.games.find((g) => g.name === name);

// Serves the listing with every name (and sign and note) of `name`'s
// glossaries marked, the game's own and each preset's.
async function markListing(page, name) {
  await page.route('**/api/games', async (route) => {
    const response = await route.fetch();
    const json = await response.json();
    const g = gameOf(json, name);
    for (const glossary of [g.glossary, ...g.presets.map((p) => p.glossary)]) {
      for (const t of glossary) {
        t.name = `${t.name} (declared)`;
        if (t.symbol) t.symbol = `${t.symbol}*`;
        if (t.note) t.note = `${t.note} (declared)`;
      }
    }
    await route.fulfill({ response, json });
  });
}

test("Stratego's legend, setup editor and board name and draw each rule set's pieces as its glossary declares", async () => {
  const st = gameOf(listing, 'stratego');
  const preset = (name) => st.presets.find((p) => p.name === name);
  const declared = (name) => new Map(preset(name).glossary.map((t) => [t.code, t]));
  assert.deepEqual(declared('classic').get('R0'), { code: 'R0', name: 'Marshal', group: 'piece', symbol: '10', note: 'the strongest; falls to the Spy if the Spy strikes first.' });
  assert.equal(declared('czech').get('R0').symbol, 'Ma');
  assert.equal(declared('srazhenie').get('R0').symbol, '1');
  const page = await h.person();
  await markListing(page, 'stratego');
  // The home's legend, rule set by rule set.
  await ready(page, '/');
  for (const p of st.presets) {
    await page.selectOption('#game', p.spec);
    const shown = await page.$$eval('#legend .pieces li', (lis) => lis.map((li) => [li.querySelector('.legend-piece').textContent, li.querySelector('b').textContent, li.textContent]));
    assert.deepEqual(shown.map(([sign, name]) => [sign, name]), p.glossary.map((t) => [`${t.symbol}*`, `${t.name} (declared)`]), p.spec);
    p.glossary.forEach((t, i) => { if (t.note) assert.ok(shown[i][2].includes(`${t.note} (declared)`), `${p.spec}: ${shown[i][2]}`); });
  }
  // A Czech match: the editor's squares and the board's pieces by the
  // signs the rule set declares, the match's legend with its army.
  const czech = declared('czech');
  const m = await twoHumans(preset('czech').spec);
  const first = (await seatView(m.id, m.tokens[0])).legal.find((a) => a.action.type === 'place');
  await play(m.id, m.tokens[0], first.id);
  await takeSeat(page, m.id, m.tokens[0]);
  await page.waitForSelector('#setup-editor[data-ready="true"]:not([hidden])', { timeout: 15000 });
  const squares = await page.$$eval('#setup-editor .setup-grid [data-index]', (bs) => bs.map((b) => [b.dataset.kind, b.querySelector('.sym').textContent]));
  assert.equal(squares.length, 40);
  for (const [kind, sign] of squares) assert.equal(sign, `${czech.get(kind).symbol}*`, kind);
  const onBoard = await page.$$eval('#board .st-board:not(.setup-grid) .own .sym', (ss) => ss.map((s) => s.textContent));
  assert.deepEqual(onBoard, [`${czech.get(first.action.kind).symbol}*`]);
  const legend = await page.$$eval('#legend .pieces b', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(legend, preset('czech').glossary.map((t) => `${t.name} (declared)`));
  assert.deepEqual(page.errors, []);
});

test('a Stratego match under rules of its own takes its pieces from its view', async () => {
  const spec = 'stratego(variant=czech,max_moves=4321)';
  const m = await twoHumans(spec);
  const view = await seatView(m.id, m.tokens[0]);
  const st = gameOf(listing, 'stratego');
  assert.ok(!st.presets.some((p) => p.spec === view.game), `${view.game} is a preset`);
  assert.deepEqual(view.glossary, st.presets.find((p) => p.name === 'czech').glossary);
  const signs = new Map(view.glossary.map((t) => [t.code, t.symbol]));
  const page = await h.person();
  await takeSeat(page, m.id, m.tokens[0]);
  await page.waitForSelector('#setup-editor[data-ready="true"]:not([hidden])', { timeout: 15000 });
  const squares = await page.$$eval('#setup-editor .setup-grid [data-index]', (bs) => bs.map((b) => [b.dataset.kind, b.querySelector('.sym').textContent]));
  for (const [kind, sign] of squares) assert.equal(sign, signs.get(kind), kind);
  const legend = await page.$$eval('#legend .pieces b', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(legend, view.glossary.map((t) => t.name));
  assert.deepEqual(page.errors, []);
});

test('card war names the line being laid as the game declares it', async () => {
  const cw = gameOf(listing, 'cardwar');
  const lines = new Map(cw.glossary.filter((t) => t.group === 'line').map((t) => [t.code, t.name]));
  assert.deepEqual([...lines.keys()].sort(), ['attack', 'defence', 'free_attack']);
  assert.equal(lines.get('free_attack'), 'free attack line');
  // Whoever is to move plays his first legal action until a line is laid.
  const m = await twoHumans('cardwar');
  let view = await seatView(m.id, m.tokens[0]);
  for (let i = 0; i < 400 && view.observation.phase.type !== 'lay'; i++) {
    assert.notEqual(view.to_move, null, 'the game waits for a seat');
    const mover = await seatView(m.id, m.tokens[view.to_move]);
    await play(m.id, m.tokens[view.to_move], mover.legal[0].id);
    view = await seatView(m.id, m.tokens[0]);
  }
  const line = view.observation.phase.line;
  assert.ok(lines.has(line), line);
  const page = await h.person();
  await markListing(page, 'cardwar');
  await takeSeat(page, m.id, m.tokens[0]);
  await page.waitForSelector('#board .cw-info', { timeout: 10000 });
  const header = await page.$eval('#board .cw-info', (p) => p.textContent);
  assert.ok(header.includes(`lays his ${lines.get(line)} (declared), `), header);
  assert.deepEqual(page.errors, []);
});

test("card war draws its guards and words a prayer's answer as the game declares them", async () => {
  const cw = gameOf(listing, 'cardwar');
  const declared = (group) => cw.glossary.filter((t) => t.group === group);
  assert.deepEqual(declared('guard').map((t) => t.code), ['A1', 'A2', 'Jk']);
  assert.equal(declared('prayer').length, 11);
  // Whoever is to move prays when he may, else plays his first legal
  // action, until someone's prayer has been answered.
  const m = await twoHumans('cardwar');
  let view = await seatView(m.id, m.tokens[0]);
  for (let i = 0; i < 3000 && !view.observation.last_prayer; i++) {
    assert.notEqual(view.to_move, null, 'the game waits for a seat');
    const mover = await seatView(m.id, m.tokens[view.to_move]);
    const pray = mover.legal.find((a) => a.action.type === 'pray');
    await play(m.id, m.tokens[view.to_move], (pray || mover.legal[0]).id);
    view = await seatView(m.id, m.tokens[0]);
  }
  const prayer = view.observation.last_prayer;
  assert.ok(prayer, 'nobody prayed');
  const answer = declared('prayer').find((t) => t.code === prayer.result);
  assert.ok(answer, prayer.result);
  assert.equal(answer.symbol, String(prayer.sum));
  const page = await h.person();
  await markListing(page, 'cardwar');
  await takeSeat(page, m.id, m.tokens[0]);
  await page.waitForSelector('#board .prayer', { timeout: 10000 });
  const told = await page.$eval('#board .prayer', (p) => [p.textContent, p.title]);
  assert.deepEqual(told, [`Last prayer: P${prayer.player} rolled ${prayer.sum}, ${answer.name} (declared)`, `${answer.note} (declared)`]);
  // Both sides' guards, in the order of their healths, by the declared
  // signs, each titled with its declared name and note.
  const guards = await page.$$eval('#board .guard', (gs) => gs.map((g) => [g.dataset.code, g.firstChild.textContent, g.title]));
  assert.equal(guards.length, 6);
  for (const [i, [code, sign, title]] of guards.entries()) {
    const t = declared('guard')[i % 3];
    assert.equal(code, t.code);
    assert.equal(sign, `${t.symbol}* `);
    assert.ok(title.startsWith(`${t.name} (declared)`) && title.endsWith(`${t.note} (declared)`), title);
  }
  assert.deepEqual(page.errors, []);
});
