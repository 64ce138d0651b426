// End-to-end, the Stratego setup editor in Debian's Chromium, at desktop
// size and at 390 px wide: a piece dragged onto another swaps the two (and
// two squares chosen with the keyboard too), a saved setup comes back
// after a reload, and "Use this setup" starts the match with exactly the
// edited setup (read from the seat's own view). From the home page a
// setup is built and saved with no match. The editor is screenshot into
// docs/screenshots/setup-editor.png.
//
// The server and the browser: harness.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { root, start } from './harness.mjs';

const shot = join(root, 'docs', 'screenshots', 'setup-editor.png');

let run;
let base;

before(async () => {
  run = await start('setup');
  base = run.base;
  mkdirSync(dirname(shot), { recursive: true });
});

after(async () => {
  if (run) await run.stop();
});

const SQUARES = '#setup-editor .setup-grid [data-index]';

const newPage = (viewport) => run.person(viewport);

async function kinds(page) {
  return page.$$eval(SQUARES, (bs) => bs.map((b) => b.dataset.kind));
}

async function editorReady(page) {
  await page.waitForSelector('#setup-editor[data-ready="true"]:not([hidden])', { timeout: 15000 });
}

// Drags square `from` onto square `to` with the pointer, in small steps.
async function drag(page, from, to) {
  const a = await page.locator(`${SQUARES}[data-index="${from}"]`).boundingBox();
  const b = await page.locator(`${SQUARES}[data-index="${to}"]`).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

function swapped(list, i, j) {
  const out = list.slice();
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

for (const [label, viewport, seat] of [
  ['desktop', { width: 1100, height: 900 }, 0],
  ['390 px wide', { width: 390, height: 844 }, 1],
]) {
  test(`the setup editor at ${label}: drag to swap, keyboard swap, save, reload, use`, async () => {
    const page = await newPage(viewport);
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
    await page.selectOption('#game', 'stratego(variant=classic)');
    await page.selectOption('#opponent', 'bot:random');
    await page.selectOption('#seat', String(seat));
    await page.click('#start');
    await page.waitForSelector('#match[data-id]', { timeout: 10000 });
    await editorReady(page);
    const id = await page.$eval('#match', (m) => m.dataset.id);
    assert.equal((await kinds(page)).length, 40);
    assert.equal(await page.$$eval('#setup-editor .foe', (f) => f.length), 0, 'only the seat\'s own pieces');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= viewport.width, 'the editor fits the width');

    // A drag from the front row to the back row swaps the two pieces.
    const start = await kinds(page);
    const to = start.findIndex((k, i) => i >= 30 && k !== start[0]);
    await drag(page, 0, to);
    await page.waitForFunction(([sel, want]) => [...document.querySelectorAll(sel)].map((b) => b.dataset.kind).join() === want,
      [SQUARES, swapped(start, 0, to).join()], { timeout: 5000 });

    // The keyboard: Enter on one square, then on another.
    const afterDrag = await kinds(page);
    const k = afterDrag.findIndex((x, i) => i >= 10 && x !== afterDrag[5]);
    await page.focus(`${SQUARES}[data-index="5"]`);
    await page.keyboard.press('Enter');
    await page.focus(`${SQUARES}[data-index="${k}"]`);
    await page.keyboard.press('Enter');
    assert.deepEqual(await kinds(page), swapped(afterDrag, 5, k), 'two squares chosen by keyboard swap');

    // Saved, then back after a reload (which starts from a new suggestion).
    const saved = await kinds(page);
    await page.fill('#setup-name', `wall ${label}`);
    await page.click('#save-setup');
    await page.reload();
    await editorReady(page);
    await page.click('#setup-random');
    await page.waitForFunction(() => /random/i.test(document.querySelector('#setup-msg').textContent), null, { timeout: 5000 });
    await page.selectOption('#saved-setups', `wall ${label}`);
    await page.click('#load-setup');
    assert.deepEqual(await kinds(page), saved, 'the saved setup reloads');
    if (seat === 0) {
      await page.locator('#setup-editor').screenshot({ path: shot });
      assert.ok(statSync(shot).size < 150 * 1024, 'the screenshot is under 150 KB');
    }

    // Use it: the match starts with exactly this setup.
    const squares = await page.$$eval(SQUARES, (bs) => bs.map((b) => b.dataset.square));
    await page.click('#use-setup');
    await page.waitForSelector('#setup-editor', { state: 'hidden', timeout: 30000 });
    const token = await page.evaluate((m) => JSON.parse(localStorage.getItem(`tabletop.seat.${m}`)).token, id);
    const auth = { headers: { Authorization: `Bearer ${token}` } };
    const view = await (await fetch(`${base}/api/matches/${id}`, auth)).json();
    assert.equal(view.you, seat);
    // The bot may already have made its first move and taken a piece, so
    // the setup is read from the replay at the last step with all 40 (the
    // seat itself has not moved yet).
    const ownAt = async (step) => {
      const at = await (await fetch(`${base}/api/matches/${id}/replay?step=${step}&view=${seat}`, auth)).json();
      return [at, new Map(at.observation.board.filter((p) => p.owner === seat).map((p) => [p.square, p.piece]))];
    };
    let [at, own] = await ownAt(view.steps);
    if (own.size < 40) [at, own] = await ownAt(view.steps - 1);
    assert.equal(own.size, 40);
    const nameOf = new Map(at.observation.army.map((a) => [a.kind, a.piece]));
    squares.forEach((sq, i) => assert.equal(own.get(sq), nameOf.get(saved[i]), `${sq}`));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('from the home page a setup is built and saved with no match', async () => {
  const page = await newPage({ width: 1100, height: 900 });
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
  await page.selectOption('#game', 'stratego(variant=czech)');
  await page.click('#open-setups');
  await page.waitForSelector('#home-setups[data-ready="true"] .setup-grid', { timeout: 10000 });
  const grid = await page.$$eval('#home-setups [data-index]', (bs) => bs.map((b) => b.dataset.kind));
  assert.equal(grid.length, 40);
  assert.equal(await page.$('#use-setup'), null, 'nothing to use it in');
  await page.fill('#setup-name', 'czech plan');
  await page.click('#save-setup');
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('tabletop.setups.czech')));
  assert.deepEqual(kept.map((s) => s.name), ['czech plan']);
  assert.deepEqual(kept[0].squares, grid);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a saved setup of another army is refused with the reason', async () => {
  const page = await newPage({ width: 1100, height: 900 });
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
  await page.evaluate(() => localStorage.setItem('tabletop.setups.classic', JSON.stringify([{ name: 'broken', squares: Array(40).fill('FLAG') }])));
  await page.selectOption('#game', 'stratego(variant=classic)');
  await page.click('#open-setups');
  await page.waitForSelector('#home-setups[data-ready="true"] .setup-grid', { timeout: 10000 });
  const before = await page.$$eval('#home-setups [data-index]', (bs) => bs.map((b) => b.dataset.kind));
  await page.selectOption('#saved-setups', 'broken');
  await page.click('#load-setup');
  assert.equal(await page.$eval('#setup-msg', (p) => p.dataset.error), 'true');
  assert.deepEqual(await page.$$eval('#home-setups [data-index]', (bs) => bs.map((b) => b.dataset.kind)), before, 'the editor is unchanged');
  await page.context().close();
});
