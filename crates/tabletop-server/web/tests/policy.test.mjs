// End-to-end: the operator's trained policy on the page. The server is
// started with --policy-dir on a temporary directory holding game-policy's
// card war fixture (a tiny policy of card war's default rules); a person
// finds it among the opponents of that rule set only, by its own name,
// and plays card war to the end against it by clicking.
//
// The server binary: $TABLETOP_SERVER_BIN, else target/release, else
// target/debug of the workspace (built with its default `policy` feature).
// $TABLETOP_POLICY_FILE plays instead of the fixture (a card war policy of
// the default rules, such as the one docs/learning.md trains).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { root, start } from './harness.mjs';

const fixture = process.env.TABLETOP_POLICY_FILE
  || join(root, 'crates', 'game-policy', 'tests', 'fixtures', 'cardwar.onnx');
const CARDWAR = 'cardwar(variant=default)';
const SEAT = 'policy:cardwar.onnx';

let h;
let base;
let browser;

before(async () => {
  // The policy directory inside the server's data directory.
  h = await start('policy-e2e', (dataDir) => {
    const policies = join(dataDir, 'policies');
    mkdirSync(policies);
    copyFileSync(fixture, join(policies, 'cardwar.onnx'));
    return ['--policy-dir', policies];
  });
  ({ base, browser } = h);
});

after(async () => {
  if (h) await h.stop();
});

// The opponent list the page shows for `spec`: [label, seat].
async function opponentsOf(page, spec) {
  await page.selectOption('#game', spec);
  return page.$$eval('#opponent option', (opts) => opts.map((o) => [o.textContent, o.value]));
}

test('a person picks the trained policy on the home page and plays card war to the end against it', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });

  // Offered for the rules it was trained on, under the bots, in words.
  const offered = await opponentsOf(page, CARDWAR);
  const labels = offered.map(([label]) => label);
  assert.deepEqual(offered.find(([, seat]) => seat === SEAT), ['Trained policy: cardwar', SEAT]);
  assert.ok(labels.indexOf('Trained policy: cardwar') > labels.indexOf('Computer, strong'), 'under the bots by strength');
  assert.ok(labels.indexOf('Trained policy: cardwar') < labels.indexOf('A person (you share a link)'));
  assert.ok(labels.every((l) => !l.includes('.onnx')), 'no file name on the screen');
  // Not for other rules of card war, nor for another game.
  for (const other of ['cardwar(variant=hand_24)', 'battleline(variant=default)', 'kuhn_poker(variant=classic)']) {
    const seats = (await opponentsOf(page, other)).map(([, seat]) => seat);
    assert.ok(!seats.includes(SEAT), `${other} does not offer the card war policy`);
  }

  await page.selectOption('#game', CARDWAR);
  await page.selectOption('#opponent', SEAT);
  await page.selectOption('#seat', '1');
  await page.click('#start');
  await page.waitForSelector('#match[data-id]', { timeout: 10000 });
  const id = await page.$eval('#match', (m) => m.dataset.id);

  // A small seeded generator chooses among the moves the page offers.
  let x = 7;
  const pick = (n) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  let moves = 0;
  for (let n = 0; n < 3000; n++) {
    await page.waitForFunction(
      () => document.querySelector('#match').dataset.finished === 'true'
        || [...document.querySelectorAll('#match [data-action], #match .pick')].some((b) => !b.disabled),
      null,
      { timeout: 30000 },
    );
    if (await page.$eval('#match', (m) => m.dataset.finished === 'true')) break;
    try {
      const actions = await page.$$('#match [data-action]:not([disabled])');
      const picks = await page.$$('#match .pick:not([disabled])');
      if (actions.length) {
        await actions[pick(actions.length)].click({ timeout: 3000 });
      } else {
        await picks[pick(picks.length)].click({ timeout: 3000 });
        const targets = await page.$$('#match .target[data-action]:not([disabled])');
        if (!targets.length) continue;
        await targets[pick(targets.length)].click({ timeout: 3000 });
      }
      moves += 1;
    } catch (e) {
      // A view pushed meanwhile redrew the board: look again.
      if (!/detached|not attached|Timeout/i.test(String(e))) throw e;
    }
  }
  assert.ok(await page.$eval('#match', (m) => m.dataset.finished === 'true'), 'the match ended');
  assert.ok(moves > 0, 'the person made moves');

  const publicView = await (await fetch(`${base}/api/matches/${id}`)).json();
  assert.deepEqual(publicView.seats, [SEAT, 'human'], 'the policy held the first seat');
  assert.ok(publicView.outcome, 'the server says the match is over');
  assert.equal(publicView.outcome.forfeit ?? null, null, `no forfeit: ${JSON.stringify(publicView.outcome)}`);
  const winner = publicView.outcome.winner === null ? 'draw' : String(publicView.outcome.winner);
  assert.equal(await page.$eval('#outcome', (o) => o.dataset.winner), winner, 'the outcome shown is the server\'s');
  assert.deepEqual(errors, [], 'no script error');
  await page.close();
});
