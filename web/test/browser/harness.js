// What the browser tests share: the real game server (the debug binary
// that `cargo build -p fanorona-server` or `cargo test --workspace`
// leaves in target/), started on a free port with a temporary database,
// Debian's Chromium, and small helpers that wait on the page, never on
// the clock. A test file sets the server and the browser up with `useSite`.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { readPage, pageKeys, asksFor } from '../pages.js';
import { CATALOGS, LANGS } from '../catalogs.js';

/** The keys a page marks for translation, in order. */
const marks = (html) => [...html.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)].map((m) => m[1]).join(' ');
const sameMarks = (sent, page) => marks(sent) === marks(page);
/** JSON with every object's keys sorted, to compare by content. */
const canon = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WEB = join(ROOT, 'web');
export const ARTIFACTS = join(ROOT, 'artifacts');

/**
 * The server binary: $FANORONA_SERVER_BIN, else the debug build in
 * $CARGO_TARGET_DIR or target/. Throws a clear message when it is missing.
 * @returns {string}
 */
export function serverBinary() {
  const target = process.env.CARGO_TARGET_DIR || join(ROOT, 'target');
  const bin = process.env.FANORONA_SERVER_BIN || join(target, 'debug', 'fanorona-server');
  if (!existsSync(bin)) {
    throw new Error(`The game server binary is missing: ${bin}\n`
      + 'Build it first with `cargo build -p fanorona-server` (scripts/test.sh does it through '
      + '`cargo test --workspace`), or point FANORONA_SERVER_BIN at one.');
  }
  return bin;
}

/**
 * The command-line tool: $FANORONA_CLI_BIN, else the debug build of
 * `fanorona` beside the server's. Throws a clear message when it is missing.
 * @returns {string}
 */
export function cliBinary() {
  const target = process.env.CARGO_TARGET_DIR || join(ROOT, 'target');
  const bin = process.env.FANORONA_CLI_BIN || join(target, 'debug', 'fanorona');
  if (!existsSync(bin)) {
    throw new Error(`The command-line tool is missing: ${bin}\n`
      + 'Build it first with `cargo build -p fanorona-cli` (scripts/test.sh does it through '
      + '`cargo test --workspace`), or point FANORONA_CLI_BIN at one.');
  }
  return bin;
}

const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * Starts the game server on 127.0.0.1 with a fresh SQLite database.
 * `restart()` stops it and starts it again on the same port and database,
 * as a deployment would.
 * @param {string[]} [extraArgs] more flags, like ['--abandon-after', '1s']
 */
export async function startServer(extraArgs = []) {
  const bin = serverBinary();
  const dir = mkdtempSync(join(tmpdir(), 'fanorona-browser-'));
  const database = `sqlite://${join(dir, 'db.sqlite')}`;
  let proc = null;
  let url = null;

  const launch = (listen) => new Promise((resolve, reject) => {
    // Every page of the suite comes from 127.0.0.1: lift the per-address
    // limit on creating games so the suite can grow without meeting it.
    const args = ['--listen', listen, '--database', database, '--log', 'warn,fanorona_server=info',
      '--create-per-minute', '1000',
      // The 4-stone endgame tables, solved in a second: the 5-stone ones
      // would take a core for tens of seconds in every server started.
      '--engine-table-stones', '4', ...extraArgs];
    const child = spawn(bin, args, {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk) => {
      output += chunk.toString().replace(ANSI, '');
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      // Files go uncompressed until the server has compressed them.
      if (m && output.includes('files compressed')) {
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        child.stdout.resume();
        child.stderr.resume();
        resolve({ child, url: m[1] });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
    child.once('error', reject);
  });

  const stop = async () => {
    if (!proc) return;
    const child = proc;
    proc = null;
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };

  ({ child: proc, url } = await launch('127.0.0.1:0'));
  try {
    await checkEmbeddedFiles(url);
  } catch (e) {
    // A server left running would keep the test process alive for ever.
    await stop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url,
    stop,
    async restart() {
      await stop();
      ({ child: proc } = await launch(new URL(url).host));
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function webFiles(dir = WEB) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      // The tests are not served, nor the partials that pages include,
      // nor the catalogs (pages carry their messages).
      if (![join(WEB, 'test'), join(WEB, 'partials'), join(WEB, 'i18n')].includes(path)) out.push(...webFiles(path));
    } else if (statSync(path).isFile()) {
      out.push(relative(WEB, path));
    }
  }
  return out;
}

// The files are embedded in the binary: a binary built before the last
// change of web/ would test old files, so compare them first: a file byte
// for byte; a page (which the server translates) by the keys it marks, in
// order, and the messages it carries in each language.
// The templates (game.html, invite.html, message.html) are only served
// filled in, by their routes, and are checked through them.
const TEMPLATES = ['game.html', 'invite.html', 'message.html'];

async function checkEmbeddedFiles(url) {
  const stale = [];
  for (const file of webFiles().filter((f) => !TEMPLATES.includes(f))) {
    const res = await fetch(`${url}/${file.split('/').map(encodeURIComponent).join('/')}`);
    const body = Buffer.from(await res.arrayBuffer());
    const same = file.endsWith('.html')
      ? sameMarks(body.toString(), readPage(file))
      : body.equals(readFileSync(join(WEB, file)));
    if (!res.ok || !same) stale.push(file);
  }
  for (const lang of LANGS) {
    const page = await (await fetch(`${url}/?lang=${lang}`)).text();
    const names = pageKeys(readPage('index.html'));
    const want = Object.fromEntries(Object.entries(CATALOGS[lang]).filter(([k]) => asksFor(names, k)));
    const sent = page.match(/<script type="application\/json" id="messages"[^>]*>([^<]*)<\/script>/);
    if (!sent || canon(JSON.parse(sent[1])) !== canon(want)) {
      stale.push(`i18n/${lang}.json`);
    }
  }
  if (stale.length) {
    throw new Error(`The server binary embeds an older web/ (${stale.join(', ')}).\n`
      + 'Rebuild it with `cargo build -p fanorona-server` before running the browser tests.');
  }
}

/** Starts Debian's Chromium, headless. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/**
 * What every browser test file sets up: before its tests, the game server
 * (started with `args`), any other servers it names in `servers` (each
 * with its own flags), Chromium, then whatever `setUp` adds; after them,
 * all closed again, then `tearDown`. The fields of the site it returns
 * are set when the tests run: `server`, `browser`, and each of `servers`
 * by its name. (A file's own `before` would not wait for these: at the
 * top of a file, node's test runner starts each hook as it is declared.)
 * @param {string[]} [args] the server's flags
 * @param {{servers?: Record<string, string[]>, setUp?: Function, tearDown?: Function}} [more]
 */
export function useSite(args = [], { servers = {}, setUp, tearDown } = {}) {
  const site = {
    /** @type {Awaited<ReturnType<typeof startServer>>} */
    server: null,
    /** @type {import('playwright-core').Browser} */
    browser: null,
    /** `link`, as the server wrote it, on the test server. */
    local: (link) => onServer(site.server.url, link),
    /**
     * A watched page (see `watchedPage`) of the test server in `context`.
     * @param {import('playwright-core').BrowserContext} context
     */
    watch: async (context) => ({ context, ...(await watchedPage(context, site.server.url)) }),
    /** A watched page in a new phone-sized context (see `phoneContext`). */
    phone: async (options = {}) => site.watch(await phoneContext(site.browser, options)),
    /**
     * A watched page that has opened `link` (a path, or a link the server
     * wrote), in `context` or else a new phone-sized one; `init` runs in
     * the page before its scripts.
     * @param {string} link
     * @param {{context?: import('playwright-core').BrowserContext, init?: Function}} [options]
     */
    open: async (link, { context, init } = {}) => {
      const watched = context ? await site.watch(context) : await site.phone();
      if (init) await watched.page.addInitScript(init);
      await watched.page.goto(link.startsWith('/') ? site.server.url + link : site.local(link));
      return watched;
    },
  };
  before(async () => {
    site.server = await startServer(args);
    for (const [name, flags] of Object.entries(servers)) site[name] = await startServer(flags);
    site.browser = await launchBrowser();
    await setUp?.(site);
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.close();
    for (const name of Object.keys(servers)) await site[name]?.close();
    await tearDown?.(site);
  });
  return site;
}

/** A phone-sized browser context: 360 px wide, touch. */
export function phoneContext(browser, options = {}) {
  return browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, ...options });
}

/**
 * Opens a page that records console errors, page errors and requests to
 * other origins.
 * @returns {Promise<{page: import('playwright-core').Page, errors: string[], outside: string[]}>}
 */
export async function watchedPage(context, origin) {
  const page = await context.newPage();
  const errors = [];
  const outside = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => { if (!r.url().startsWith(origin)) outside.push(r.url()); });
  return { page, errors, outside };
}

/** Saves a screenshot under artifacts/ (git-ignored). */
export async function shot(page, name, options = {}) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), ...options });
}

/** Fails when the page scrolls sideways. */
export async function noSidewaysScroll(page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px window`);
}

/** Waits until the text of `selector` matches `pattern`. */
export async function waitText(page, selector, pattern, timeout = 10_000) {
  try {
    await page.waitForFunction(([sel, src, flags]) => {
      const node = document.querySelector(sel);
      return Boolean(node) && new RegExp(src, flags).test(node.textContent);
    }, [selector, pattern.source, pattern.flags], { timeout });
  } catch (e) {
    const now = await page.textContent(selector).catch(() => null);
    throw new Error(`${selector} never matched ${pattern}; it reads ${JSON.stringify(now)}`, { cause: e });
  }
}

/** The move list as shown. */
export function moveList(page) {
  return page.$$eval('#moves button.move', (bs) => bs.map((b) => b.textContent));
}

/** Waits until the move list reads `moves`. */
export async function waitMoves(page, moves) {
  await page.waitForFunction((want) => {
    const got = [...document.querySelectorAll('#moves button.move')].map((b) => b.textContent);
    return got.join(' ') === want.join(' ');
  }, moves, { timeout: 10_000 }).catch(async (e) => {
    throw new Error(`moves never read ${moves.join(' ')}: ${(await moveList(page)).join(' ')}`, { cause: e });
  });
}

/**
 * A phone's page of `site` opened at `path`, with `api`, the list of its
 * requests for /api/ (its workers' included): the pages that compute in
 * the browser must leave it empty.
 * @param {{phone: () => Promise<object>, server: {url: string}}} site
 * @param {string} path
 */
export async function openCountingApi(site, path) {
  const watched = await site.phone();
  const api = [];
  watched.context.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) api.push(r.url()); });
  await watched.page.goto(site.server.url + path);
  return { ...watched, api };
}

/** Taps a point of the board. */
export function tapPoint(page, sq) {
  return page.click(`[data-sq="${sq}"] .hit`);
}

// Reads the stones on the board as position rows (rank 5 first) from the
// points' labels, the way a screen reader hears them. Runs in the page;
// given `want`, it answers whether the board shows those rows. (A function,
// not a string: the pages' Content-Security-Policy forbids eval, and
// Playwright polls string predicates with eval.)
function readRows(want) {
  const at = new Map();
  for (const g of document.querySelectorAll('svg.board [data-sq]')) {
    const label = g.getAttribute('aria-label') || '';
    at.set(g.dataset.sq, /white stone/.test(label) ? 'W' : /black stone/.test(label) ? 'B' : '.');
  }
  const rows = [];
  for (let rank = 5; rank >= 1; rank--) {
    rows.push([...'abcdefghi'].map((f) => at.get(`${f}${rank}`)).join(''));
  }
  return want === undefined ? rows.join('/') : rows.join('/') === want;
}

/** The stones on the board as position rows, rank 5 first. */
export function boardRows(page) {
  return page.evaluate(readRows);
}

/** Waits until the board shows `rows` (position rows, rank 5 first). */
export async function waitBoard(page, rows) {
  await page.waitForFunction(readRows, rows, { timeout: 10_000 })
    .catch(async (e) => {
      throw new Error(`the board never showed ${rows}: ${await boardRows(page)}`, { cause: e });
    });
}

/** Waits until the label of point `sq` matches `pattern`. */
export async function waitLabel(page, sq, pattern) {
  await page.waitForFunction(([s, src]) => {
    const g = document.querySelector(`svg.board [data-sq="${s}"]`);
    return Boolean(g) && new RegExp(src).test(g.getAttribute('aria-label') || '');
  }, [sq, pattern.source], { timeout: 10_000 }).catch(async (e) => {
    const now = await page.getAttribute(`[data-sq="${sq}"]`, 'aria-label');
    throw new Error(`${sq} never matched ${pattern}: ${now}`, { cause: e });
  });
}

/**
 * A white stone on e2 that takes e4 and e5 by approach and may then take
 * c3 from e3: after the first capture the chain goes on. A start for
 * `createGame(origin, { first: 'me', position: CHAIN })` on a server
 * started with --allow-custom-start.
 */
export const CHAIN = '....B..../....B..../..B....../....W..../......... w';

/**
 * `link`, as the server wrote it (with its public origin), on the test
 * server at `origin`.
 * @param {string} origin
 * @param {string} link
 */
export function onServer(origin, link) {
  const url = new URL(link);
  return origin + url.pathname + url.search;
}

/**
 * Creates a game through the HTTP API, as the front page does.
 * @param {string} origin the server's URL
 * @param {object} body e.g. {first: 'me'} or {first: 'me', position: '…'}
 * @returns {Promise<{game_id: string, seat_link: string, invite_link: string, spectator_link: string}>}
 */
export async function createGame(origin, body) {
  const res = await fetch(`${origin}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const answer = await res.json();
  assert.equal(res.status, 201, `creating a game failed: ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * POSTs JSON to the server's API, with a seat's secret as the bearer when
 * given, and fails unless the answer is 200 OK.
 * @returns {Promise<object>} the answer
 */
export async function apiPost(origin, path, body, seat) {
  const headers = { 'content-type': 'application/json' };
  if (seat) headers.authorization = `Bearer ${seat}`;
  const res = await fetch(`${origin}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = await res.json();
  assert.equal(res.status, 200, JSON.stringify(answer));
  return answer;
}

/**
 * A game between two seats held from outside the browser: created, and
 * its invitation accepted over the API. `joined` is the join's answer,
 * `seats` the secret of each colour.
 */
export async function friendsGame(origin, body = { first: 'me' }) {
  const game = await createGame(origin, body);
  const invite = new URL(game.invite_link).searchParams.get('invite');
  const joined = await apiPost(origin, `/api/games/${game.game_id}/join`, { invite });
  return { ...game, joined, seats: { [game.color]: game.seat, [joined.role]: joined.seat } };
}

/**
 * Plays one whole turn over the API for `seat`, the side to move: the
 * first legal step, and the end of the turn if it goes on.
 * @returns {Promise<object>} the state after it
 */
export async function playTurnOverApi(origin, gameId, seat) {
  const [{ from, to, kind }] = await legalSteps(origin, gameId);
  const state = await apiPost(origin, `/api/games/${gameId}/intents`, { type: 'step', from, to, kind }, seat);
  if (!state.turn) return state;
  return apiPost(origin, `/api/games/${gameId}/intents`, { type: 'end_turn' }, seat);
}

/**
 * Plays `n` whole turns of a game from `friendsGame`, each side in turn
 * (see `playTurnOverApi`).
 * @returns {Promise<object>} the state after the last
 */
export async function playTurnsOverApi(origin, game, n) {
  let state = await (await fetch(`${origin}/api/games/${game.game_id}`)).json();
  for (let i = 0; i < n; i++) {
    state = await playTurnOverApi(origin, game.game_id, game.seats[state.side_to_move]);
  }
  return state;
}

/** The legal steps the server lists for the side to move. */
export async function legalSteps(origin, gameId) {
  const res = await fetch(`${origin}/api/games/${gameId}`);
  assert.equal(res.status, 200);
  return (await res.json()).legal_steps;
}

/**
 * A legal step that is made by naming its two points alone: no other
 * step shares its origin and landing (no line to choose). With `prefer`,
 * such a step that passes it first.
 */
export async function plainStep(origin, gameId, prefer = () => true) {
  const steps = await legalSteps(origin, gameId);
  const plain = steps.filter((s) => steps.filter((o) => o.from === s.from && o.to === s.to).length === 1);
  const step = plain.find(prefer) || plain[0];
  assert.ok(step, `no plain step among ${JSON.stringify(steps)}`);
  return step;
}

// Moves the keyboard focus over the board with the arrow keys to `sq`,
// choosing each arrow from where the points are drawn on the screen.
export async function arrowTo(page, sq) {
  for (let i = 0; i < 20; i++) {
    const at = await page.evaluate(() => document.activeElement?.getAttribute('data-sq'));
    if (at === sq) return;
    const [a, b] = await Promise.all([at, sq].map((s) => page.locator(`[data-sq="${s}"] .hit`).boundingBox()));
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const key = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'ArrowRight' : 'ArrowLeft') : (dy > 0 ? 'ArrowDown' : 'ArrowUp');
    await page.keyboard.press(key);
  }
  throw new Error(`focus never reached ${sq}`);
}

// What the board shows of the last turn: whether the tinted points are
// its origin and its landing point, how many arrows its path has, whether
// it is drawn as finished (not the live path of a chain), and the points
// marked as taken. Runs in the page; given `want`, it answers whether the
// board shows that.
function lastTurnShown([from, to, want]) {
  const at = (sq) => document.querySelector(`svg.board [data-sq="${sq}"]`).getAttribute('transform');
  const spots = (cls) => [...document.querySelectorAll(`svg.board .spot.${cls}`)]
    .map((c) => `translate(${c.getAttribute('cx')} ${c.getAttribute('cy')})`);
  const shown = {
    from: spots('from').join() === at(from),
    to: spots('to').includes(at(to)),
    arrows: (document.querySelector('svg.board .arrow-heads').getAttribute('d') || '').split('Z').length - 1,
    finished: !document.querySelector('svg.board .trail').classList.contains('live'),
    taken: [...document.querySelectorAll('svg.board .pt.taken')].map((g) => g.dataset.sq).sort().join(' '),
  };
  return want === undefined ? shown : JSON.stringify(shown) === JSON.stringify(want);
}

/**
 * Waits until the board marks the last turn: from `from` to `to` in
 * `steps` arrows, with the points `captured` marked as taken.
 */
export async function waitLastTurn(page, from, to, captured, steps = 1) {
  const want = { from: true, to: true, arrows: steps, finished: true, taken: [...captured].sort().join(' ') };
  try {
    await page.waitForFunction(lastTurnShown, [from, to, want], { timeout: 10_000 });
  } catch (e) {
    assert.deepEqual(await page.evaluate(lastTurnShown, [from, to]), want, `the last turn ${from}-${to} as drawn`);
    throw e;
  }
}

/** The centre of point `sq` on the screen, in CSS pixels. */
export async function pointCentre(page, sq) {
  const box = await page.locator(`[data-sq="${sq}"] .hit`).boundingBox();
  assert.ok(box, `${sq} is not on the screen`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** WCAG contrast ratio of two CSS colours given as `rgb(r, g, b)`. */
export function contrastRatio(a, b) {
  const luminance = (css) => {
    const m = /rgba?\(\s*(\d+(?:\.\d+)?)[,\s]+(\d+(?:\.\d+)?)[,\s]+(\d+(?:\.\d+)?)/.exec(css);
    assert.ok(m, `not an rgb() colour: ${css}`);
    const [r, g, bl] = m.slice(1, 4).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * On an invitation page, presses "Join the game" as the friend does, and
 * waits for the board that follows (the address loses its token).
 * @param {import('playwright-core').Page} page
 */
export async function pressJoin(page) {
  await page.waitForSelector('#join');
  const board = page.waitForURL(/\/g\/[A-Za-z0-9]+$/, { timeout: 10_000 });
  await page.click('#join');
  await board;
}
