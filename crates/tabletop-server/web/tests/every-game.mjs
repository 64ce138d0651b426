// End-to-end: for every game of the server's registry, a person plays a
// whole match against a bot in Debian's Chromium by clicking what the
// page offers: cards, pieces and squares of a game's drawing (a "pick",
// then one of its lit targets), or the legal-move buttons under it (every
// clickable move carries data-action="ID"); the outcome shown must equal
// the server's, and a screenshot of each game's page is written to
// tests/screenshots/.
//
// The presets are played in `parts` files (every-game-N.test.mjs), each
// the presets whose place in the listing is `part` modulo `parts`: node's
// runner plays two files at once, and these matches are most of the
// browser stage's time (docs/performance.md, "CI's stage times"). Each
// file starts its own server and a browser with one persistent profile
// (harness.mjs's startWithProfile).
// Not a test file itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { picker, startWithProfile } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const shots = join(here, 'screenshots');

// Registers the test of the presets whose index in the listing is `part`
// modulo `parts`; a preset keeps its seat and clicks whichever file plays
// it.
export function everyGame(part, parts) {
  let started;
  let base;
  let browser;

  before(async () => {
    started = await startWithProfile(`e2e-${part + 1}`);
    ({ base, browser } = started);
    mkdirSync(shots, { recursive: true });
  });

  after(async () => {
    if (started) await started.stop();
  });

  async function specsFromServer() {
    const res = await fetch(`${base}/api/games`);
    const listing = await res.json();
    const specs = [];
    for (const g of listing.games) {
      const presets = g.presets.length ? g.presets.map((p) => p.spec) : [g.name];
      // A game with a drawing of its own (the listing's `renderer`, not
      // the generic one of text buttons) is played on that drawing.
      const drawn = g.renderer !== 'renderers/generic.js';
      for (const spec of presets) specs.push({ spec, bots: g.bots, drawn });
    }
    return specs;
  }

  test(`a person plays every game to the end against a bot by clicking (part ${part + 1} of ${parts})`, async () => {
    const specs = await specsFromServer();
    assert.ok(specs.length > 0, 'the server lists games');
    for (const [index, { spec, bots, drawn }] of specs.entries()) {
      if (index % parts !== part) continue;
      const seat = index % 2;
      const pick = picker(1000 + index);
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(base + '/');
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
      await page.selectOption('#game', spec);
      const bot = bots.includes('bot:heuristic') ? 'bot:heuristic' : 'bot:random';
      await page.selectOption('#opponent', bot);
      await page.selectOption('#seat', String(seat));
      await page.click('#start');
      await page.waitForSelector('#match[data-id]', { timeout: 10000 });
      let clicks = 0;
      let boardClicks = 0;
      let autoUsed = false;
      const logLength = () => page.$eval('#log', (ol) => ol.children.length);
      const enabled = (sel) => page.$$(`${sel}:not([disabled])`);
      for (;;) {
        await page.waitForFunction(
          () => document.querySelector('#match').dataset.finished === 'true'
            || [...document.querySelectorAll('#match [data-action], #match .pick, #match .auto')].some((b) => !b.disabled),
          null,
          { timeout: 30000 },
        );
        const finished = await page.$eval('#match', (m) => m.dataset.finished === 'true');
        if (finished) break;
        const before = await logLength();
        try {
          const auto = await enabled('#match .auto');
          const picks = await enabled('#match .pick');
          const actions = await enabled('#match [data-action]');
          if (auto.length && !autoUsed) {
            // The automatic setup: once per match, it places the rest.
            autoUsed = true;
            await auto[0].click({ timeout: 5000 });
          } else if (picks.length && (pick(10) < 8 || actions.length === 0)) {
            // A card or piece of the drawing, then one of its targets.
            await picks[pick(picks.length)].click({ timeout: 5000 });
            const targets = await enabled('#match .target[data-action]');
            if (!targets.length) continue;
            await targets[pick(targets.length)].click({ timeout: 5000 });
            boardClicks += 1;
          } else if (actions.length === 0) {
            // Only the automatic setup's button, already at work: wait.
            await page.waitForTimeout(50);
            continue;
          } else {
            const chosen = actions[pick(actions.length)];
            if (await chosen.evaluate((b) => !!b.closest('#board'))) boardClicks += 1;
            await chosen.click({ timeout: 5000 });
          }
        } catch (e) {
          // A view pushed meanwhile redrew the board: look again.
          if (/detached|not attached|Timeout/i.test(String(e))) continue;
          throw e;
        }
        await page.waitForFunction((n) => document.querySelector('#log').children.length > n
          || document.querySelector('#match').dataset.finished === 'true', before, { timeout: 30000 });
        clicks += 1;
        assert.ok(clicks < 5000, `${spec}: the match did not end`);
      }
      const id = await page.$eval('#match', (m) => m.dataset.id);
      const shown = await page.$eval('#outcome', (o) => o.dataset.winner);
      const publicView = await (await fetch(`${base}/api/matches/${id}`)).json();
      assert.ok(publicView.outcome, `${spec}: the server says the match is over`);
      const winner = publicView.outcome.winner === null ? 'draw' : String(publicView.outcome.winner);
      assert.equal(shown, winner, `${spec}: the outcome shown is the server's`);
      assert.equal(new URL(page.url()).pathname, `/m/${id}`, `${spec}: the match has its address`);
      // Only legal moves were clickable: none is left at the end.
      assert.equal(await page.$$eval('#match [data-action], #match .pick, #match .auto', (b) => b.length), 0);
      // Games with a drawing were played on it (cards, squares), not only
      // with the buttons under the board.
      if (drawn) assert.ok(boardClicks > 0, `${spec}: no move was made on the drawing`);
      assert.ok((await page.textContent('#legend')).length > 0, 'the legend is shown');
      assert.ok(await page.isVisible('#legend'), 'the legend is visible');
      assert.equal(await page.$$eval('#log li.last', (l) => l.length), 1, 'the last move is highlighted');
      assert.ok((await page.textContent('#observation')).length > 0, 'the observation is drawn');
      assert.ok(clicks > 0, `${spec}: the person made at least one move`);
      await page.screenshot({ path: join(shots, `${spec.replace(/[^A-Za-z0-9=_-]+/g, '_')}.png`), fullPage: true });
      assert.deepEqual(errors, [], `${spec}: no script error`);
      await page.close();
    }
  });
}
