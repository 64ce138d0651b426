// What the end-to-end tests share: the server binary ($TABLETOP_SERVER_BIN,
// else target/release, else target/debug of the workspace) started on
// 127.0.0.1 with a free port and a fresh database, Debian's Chromium, and
// people as browser contexts (each its own localStorage). Not a test file
// itself (node --test runs `*.test.mjs`).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, '..', '..', '..', '..');

export function serverBin() {
  if (process.env.TABLETOP_SERVER_BIN) return process.env.TABLETOP_SERVER_BIN;
  for (const profile of ['release', 'debug']) {
    const p = join(root, 'target', profile, 'tabletop-server');
    if (existsSync(p)) return p;
  }
  throw new Error('build the server first: cargo build --release -p tabletop-server');
}

// Chromium's flags for a test machine (no sandbox, no GPU, no network
// beside the server's).
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
};

// Starts a server with `args` besides its port and database; `stop` ends
// it and removes its data directory (where `args` may put files first:
// `args` may be a function of that directory).
export async function startServer(name, args = []) {
  const dataDir = mkdtempSync(join(tmpdir(), `tabletop-${name}-`));
  const extra = typeof args === 'function' ? args(dataDir) : args;
  // At warn, so that a failing test's report is not lost among a line per
  // request (the CI log keeps only its tail).
  const server = spawn(serverBin(), ['--port', '0', '--log', 'warn', '--db', join(dataDir, `${name}.db`), ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start in 20 s')), 20000);
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/[\d.:]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  const stop = () => {
    server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, stop };
}

// Starts a server named `name` and a browser with one persistent profile
// (a fresh directory, which Playwright passes as --user-data-dir), whose
// pages share it; `stop` ends both and removes their data.
export async function startWithProfile(name) {
  const { base, stop: stopServer } = await startServer(name);
  const profileDir = mkdtempSync(join(tmpdir(), 'tabletop-chromium-'));
  const browser = await chromium.launchPersistentContext(profileDir, {
    ...CHROMIUM,
    viewport: { width: 1100, height: 800 },
    args: [
      ...CHROMIUM.args,
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  const stop = async () => {
    await browser.close();
    stopServer();
    rmSync(profileDir, { recursive: true, force: true });
  };
  return { base, browser, stop };
}

// Starts a server (with `args`, as startServer) and a browser; `stop` ends
// both and removes the data.
export async function start(name, args = []) {
  const { base, stop: stopServer } = await startServer(name, args);
  const browser = await chromium.launch(CHROMIUM);
  // A person: a browser context of their own, its page's errors kept.
  const people = [];
  const person = async (viewport = { width: 1100, height: 800 }) => {
    const ctx = await browser.newContext({ viewport });
    people.push(ctx);
    const page = await ctx.newPage();
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(String(e)));
    return page;
  };
  const api = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  // A page at `path`, once the page says it is ready.
  const ready = async (page, path) => {
    await page.goto(base + path);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
  };
  // A match of `game` with two human seats, made through the API: its id
  // and both seats' tokens.
  const twoHumans = async (game) => {
    const m = await api('POST', '/api/matches', { game, seats: ['human', 'human'] });
    if (!m.id) throw new Error(`the server made no match of ${game}: ${JSON.stringify(m)}`);
    return { id: m.id, tokens: m.tokens.map((t) => t.token) };
  };
  // Everybody leaves: their pages close, and with them their sockets, which
  // the server counts against the one address all the tests come from.
  const leave = async () => {
    await Promise.all(people.splice(0).map((ctx) => ctx.close()));
  };
  const stop = async () => {
    await browser.close();
    stopServer();
  };
  return { base, browser, person, api, ready, twoHumans, leave, stop };
}

// Holds back the answers to `page`'s requests whose URL `matches` (a
// predicate on a URL): the page asks, the test goes on, and the answer
// comes only when the returned function is called. That function resolves
// once the answer has reached the page and the page has had a moment to
// draw it, were it to.
export async function holdBack(page, matches) {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route(matches, async (route) => {
    await held;
    await route.continue();
  });
  return async () => {
    const answered = page.waitForResponse((r) => matches(new URL(r.url())));
    release();
    await answered;
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
    await page.unroute(matches);
  };
}

// A small seeded generator: which of `n` legal buttons to click.
export function picker(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x % n;
  };
}
