// End-to-end clocks and draws: the page shows both clocks of a timed
// match, ticking, and the flag falls on a control of a few seconds with
// nobody clicking; the home offers the game's standard clock in words;
// two people (two browser contexts) offer, decline and agree a draw, and a
// resignation asked for once survives the page being drawn again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { start, root } from './harness.mjs';

let h;

before(async () => {
  h = await start('clock');
});

after(async () => {
  if (h) await h.stop();
});

// A match of two people created through the API; its page for each seat.
async function twoPeople(control) {
  const created = await h.api('POST', '/api/matches', {
    game: 'kuhn_poker', seats: ['human', 'human'], time_control: control,
  });
  const pages = [];
  for (const t of created.tokens) {
    const page = await h.person();
    await page.goto(`${h.base}/m/${created.id}#token=${t.token}`);
    await page.waitForSelector(`#match[data-you="${t.seat}"]`, { timeout: 10000 });
    pages[t.seat] = page;
  }
  return { id: created.id, pages };
}

test('a flag falls on a short control with nobody clicking', async () => {
  const { id, pages: [first, second] } = await twoPeople({ kind: 'fischer', base_ms: 10000, increment_ms: 0 });
  const mine = await first.$eval('#clocks .clock[data-seat="0"]', (c) => ({ running: c.dataset.running, text: c.textContent }));
  assert.equal(mine.running, 'true', 'the first player is to move: their clock runs');
  // At most the 10 s control: a loaded machine may take a few seconds to
  // open both pages (another test file may be playing beside this one),
  // and the clock runs from the match's creation; with 6 s the flag could
  // fall before the first look.
  assert.match(mine.text, /^You 0:(0\d|10)$/);
  assert.match(await second.$eval('#clocks .control', (c) => c.textContent), /0:10 \+ 0 s a move/);
  // It ticks down locally between the server's updates.
  await first.waitForFunction(() => Number(document.querySelector('#clocks .clock[data-seat="0"]').dataset.ms) < 9500, null, { timeout: 5000 });
  await first.screenshot({ path: join(root, 'docs', 'screenshots', 'clock.png'), clip: { x: 0, y: 0, width: 1100, height: 260 } });
  for (const page of [first, second]) {
    await page.waitForSelector('#match[data-finished="true"]', { timeout: 15000 });
  }
  assert.equal(await first.$eval('#outcome', (o) => o.textContent), 'You lose on time');
  assert.equal(await second.$eval('#outcome', (o) => o.textContent), 'You win on time');
  assert.equal(await first.$eval('#clocks .clock[data-seat="0"] .time', (c) => c.textContent), '0:00');
  const view = await h.api('GET', `/api/matches/${id}`);
  assert.equal(view.outcome.ending, 'time');
  assert.deepEqual([first.errors, second.errors], [[], []]);
});

test("the home offers untimed play and the game's standard clock in words", async () => {
  const page = await h.person();
  await page.goto(h.base + '/');
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
  await page.selectOption('#game', 'stratego(variant=classic)');
  const options = await page.$$eval('#clock option', (os) => os.map((o) => o.textContent));
  assert.deepEqual(options, ['Untimed', '12 min, 4 s delay a move']);
  await page.selectOption('#game', 'kuhn_poker(variant=classic)');
  await page.selectOption('#opponent', 'bot:random');
  await page.selectOption('#clock', 'standard');
  await page.click('#start');
  await page.waitForSelector('#match[data-id] #clocks .clock', { timeout: 10000 });
  assert.match(await page.$eval('#clocks .control', (c) => c.textContent), /^1 min \+ 1 s a move$/);
  assert.deepEqual(page.errors, []);
});

test('two people offer, decline and agree a draw', async () => {
  const { id, pages: [alice, bob] } = await twoPeople('none');
  assert.equal(await alice.$$eval('#clocks .clock', (l) => l.length), 0, 'untimed: no clock');
  await alice.click('#offer-draw');
  await bob.waitForSelector('#accept-draw', { timeout: 10000 });
  await bob.click('#decline-draw');
  await alice.waitForSelector('#offer-draw', { timeout: 10000 });
  await alice.click('#offer-draw');
  await alice.waitForSelector('#withdraw-draw', { timeout: 10000 });
  await bob.waitForSelector('#accept-draw', { timeout: 10000 });
  await bob.click('#accept-draw');
  for (const page of [alice, bob]) {
    await page.waitForSelector('#match[data-finished="true"]', { timeout: 10000 });
    assert.equal(await page.$eval('#outcome', (o) => o.textContent), 'Draw by agreement');
    assert.equal(await page.$$eval('#offer-draw, #accept-draw', (l) => l.length), 0, 'no draw buttons once over');
  }
  const view = await h.api('GET', `/api/matches/${id}`);
  assert.equal(view.outcome.ending, 'agreed_draw');
  assert.deepEqual([alice.errors, bob.errors], [[], []]);
});

test('a resignation clicked once stays asked for while the match is drawn again', async () => {
  const { id, pages: [alice, bob] } = await twoPeople('none');
  await bob.click('#resign');
  await bob.waitForSelector('#resign[data-armed="true"]', { timeout: 10000 });
  // Alice's offer reaches Bob as a new view, and his bar is drawn again.
  await alice.click('#offer-draw');
  await bob.waitForSelector('#accept-draw', { timeout: 10000 });
  assert.equal(await bob.$eval('#resign', (b) => b.dataset.armed), 'true');
  await bob.click('#resign');
  await alice.waitForSelector('#match[data-finished="true"]', { timeout: 10000 });
  assert.equal(await alice.$eval('#outcome', (o) => o.textContent), 'You win by resignation');
  assert.equal((await h.api('GET', `/api/matches/${id}`)).outcome.ending, 'resigned');
  // Alice never asked: her next match's Resign is not armed.
  const next = await twoPeople('none');
  assert.equal(await next.pages[0].$eval('#resign', (b) => b.dataset.armed), undefined);
  assert.deepEqual([alice.errors, bob.errors], [[], []]);
});
