// End-to-end ratings: two people (two browser contexts, each its own
// localStorage) pick names, play a rated match of Kuhn poker with a clock
// against each other to the end through the lobby, and the leaderboard page then lists
// both with ratings moved from 1500 (the winner above, the loser below).
// The server and browser as harness.mjs starts them; a fresh database each run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { root, start } from './harness.mjs';

const KUHN = 'kuhn_poker(variant=classic)';

let h;
let base;

before(async () => {
  h = await start('rating');
  ({ base } = h);
});

after(async () => {
  if (h) await h.stop();
});

async function person() {
  const page = await h.person();
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
  return page;
}

async function pickName(page, name) {
  await page.fill('#player-name', name);
  await page.click('#pick-name');
  await page.waitForFunction((n) => document.querySelector('#player-shown').textContent.includes(n), name, { timeout: 10000 });
  assert.equal(await page.isChecked('#rated'), true, 'a name kept offers rated matches');
}

const finished = (page) => page.$eval('#match', (m) => m.dataset.finished === 'true');

// Both pages click legal moves (the first offered) until the match ends.
async function playToEnd(pages) {
  for (let n = 0; n < 400; n++) {
    let done = true;
    for (const page of pages) {
      if (await finished(page)) continue;
      done = false;
      const actions = await page.$$('#match [data-action]:not([disabled])');
      if (actions.length) {
        try {
          await actions[0].click({ timeout: 3000 });
        } catch (e) {
          if (!/detached|not attached|Timeout/i.test(String(e))) throw e;
        }
      }
    }
    if (done) return;
    await pages[0].waitForTimeout(40);
  }
  throw new Error('the match did not end');
}

test('two people pick names, play a rated match to the end, and the leaderboard shows both ratings moved', async () => {
  const ann = await person();
  const bob = await person();
  await pickName(ann, 'Ann');
  await pickName(bob, 'Bob');
  // A name is kept by the browser: a reload still plays as Ann.
  await ann.reload();
  await ann.waitForSelector('body[data-ready="true"]');
  assert.match(await ann.textContent('#player-shown'), /Ann/);
  // Someone else cannot take the name.
  await bob.evaluate(() => localStorage.removeItem('tabletop.player'));
  await bob.reload();
  await bob.waitForSelector('body[data-ready="true"]');
  await bob.fill('#player-name', 'ann');
  await bob.click('#pick-name');
  await bob.waitForFunction(() => /taken/.test(document.querySelector('#error').textContent), null, { timeout: 10000 });
  await pickName(bob, 'Bob2');

  await ann.selectOption('#game', KUHN);
  await ann.selectOption('#opponent', 'person');
  await ann.selectOption('#seat', '0');
  await ann.setChecked('#listed', true);
  // The "rated match with a clock": the server's standard clock.
  await ann.selectOption('#clock', 'standard');
  await ann.click('#start');
  await ann.waitForSelector('#match[data-id]', { timeout: 10000 });
  const id = await ann.$eval('#match', (m) => m.dataset.id);
  await ann.waitForSelector('#players-line[data-rated="true"]', { timeout: 10000 });

  await bob.goto(base + '/');
  await bob.waitForSelector(`#lobby button.join[data-id="${id}"]`, { timeout: 10000 });
  assert.match(await bob.$eval(`#lobby button.join[data-id="${id}"]`, (b) => b.closest('li').textContent), /rated/);
  await bob.click(`#lobby button.join[data-id="${id}"]`);
  await bob.waitForSelector('#match[data-id]', { timeout: 10000 });
  await bob.waitForSelector('#clocks:not([hidden])', { timeout: 10000 });
  assert.match(await bob.textContent('#players-line'), /Rated: Ann \(1500 ± 350\) against Bob2 \(1500 ± 350\)/);

  await playToEnd([ann, bob]);
  await ann.waitForSelector('#match[data-finished="true"]', { timeout: 10000 });
  const winner = await ann.$eval('#outcome', (o) => o.dataset.winner);
  const [won, lost] = winner === '0' ? ['Ann', 'Bob2'] : ['Bob2', 'Ann'];

  await ann.click('#leaderboard-link');
  await ann.waitForSelector('#leaderboard:not([hidden])', { timeout: 10000 });
  await ann.selectOption('#board-game', KUHN);
  await ann.waitForSelector('#board-rows tr[data-name="Bob2"]', { timeout: 10000 });
  const rows = await ann.$$eval('#board-rows tr', (trs) => trs.map((t) => ({ name: t.dataset.name, kind: t.dataset.kind, rating: Number(t.dataset.rating) })));
  assert.deepEqual(rows.map((r) => r.name), [won, lost], 'best first');
  assert.ok(rows[0].rating > 1500 && rows[1].rating < 1500, JSON.stringify(rows));
  assert.ok(rows.every((r) => r.kind === 'person'));
  assert.match(await ann.textContent('#board-rows tr.you'), /Ann \(you\)/);
  assert.ok(new URL(ann.url()).pathname === '/leaderboard');
  await ann.screenshot({ path: join(root, 'docs', 'screenshots', 'leaderboard.png') });
  for (const p of [ann, bob]) assert.deepEqual(p.errors, []);
});
