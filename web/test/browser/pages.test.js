// The pages served by the real game server, in Chromium at phone size:
// they render without errors or outside requests and fit 360 px; the
// front page hands out an invitation; an unknown game link explains
// itself; and a player whose friend has left may claim the win once the
// server says so.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, shot, noSidewaysScroll, waitText, tapPoint, waitMoves, waitBoard, createGame,
  contrastRatio, pressJoin,
} from './harness.js';

// A short abandonment delay, so that a claim can be tested quickly.
const site = useSite(['--abandon-after', '1s']);

async function open(path, options) {
  const watched = await site.phone(options);
  const response = await watched.page.goto(site.server.url + path);
  return { response, ...watched };
}

for (const [path, heading, boards] of [
  ['/', 'Fanorona', 1], ['/rules', 'How to play', 17], ['/which-rules', 'Which rules do we use?', 0],
  ['/replay', 'Open a game record', 0], ['/analysis', 'Analysis board', 1],
  ['/puzzles', 'Puzzles', 1],
]) {
  test(`${path} renders at 360 px without errors, outside requests or sideways scroll`, async () => {
    const { context, page, errors, outside } = await open(path);
    assert.equal((await page.textContent('h1')).trim(), heading);
    if (boards) await page.waitForSelector('svg.board');
    assert.equal(await page.locator('svg.board').count(), boards);
    await noSidewaysScroll(page);
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    await shot(page, `page${path.replace(/\W+/g, '-')}360`, { fullPage: true });
    await context.close();
  });
}

test('the dark theme follows the system', async () => {
  const colours = async (scheme) => {
    const { context, page } = await open('/', { colorScheme: scheme });
    await page.waitForSelector('svg.board');
    const read = await page.evaluate(() => {
      const style = getComputedStyle(document.body);
      return { text: style.color, board: getComputedStyle(document.querySelector('.board-bg')).fill };
    });
    if (scheme === 'dark') await shot(page, 'page-home-dark', { fullPage: true });
    await context.close();
    return read;
  };
  const light = await colours('light');
  const dark = await colours('dark');
  assert.notEqual(light.text, dark.text);
  assert.notEqual(light.board, dark.board);
});

test('the rules page draws a before and after picture for each capture', async () => {
  const { context, page } = await open('/rules');
  await page.waitForSelector('.diagram svg.board');
  assert.equal(await page.locator('.diagram svg.board').count(), 10);
  assert.ok(await page.locator('.pt.taken').count() >= 9, 'the points of captured stones are marked');
  await context.close();
});

test('an unknown game link shows a friendly page with a way to a new game', async () => {
  const { context, page, response } = await open('/g/NoSuchGame');
  assert.equal(response.status(), 404);
  assert.match(await page.textContent('h1'), /not found/i);
  assert.equal(await page.title(), 'Not found · Fanorona');
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource')
    .map((r) => new URL(r.name).pathname).filter((p) => p.endsWith('.js')));
  assert.deepEqual(loaded, [], 'no script: the server wrote the page in its language');
  const link = page.locator('a[href="/"]', { hasText: /new game/i });
  assert.equal(await link.count(), 1);
  await noSidewaysScroll(page);
  await shot(page, 'not-found-360', { fullPage: true });
  await link.click();
  await page.waitForSelector('#start');
  await context.close();
});

test('the game page marks its first drawn board once, and its files come compressed', async () => {
  const created = await createGame(site.server.url, { first: 'me' });
  const { context, page, errors } = await site.phone();
  const codings = new Map();
  page.on('response', (r) => {
    if (r.status() === 200) codings.set(new URL(r.url()).pathname, r.headers()['content-encoding']);
  });
  await page.goto(created.seat_link);
  await waitBoard(page, 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW');
  const marks = () => page.evaluate(() => performance.getEntriesByName('board-drawn', 'mark').map((m) => m.startTime));
  const [drawn, ...more] = await marks();
  assert.deepEqual(more, [], 'one mark');
  const [nav] = await page.evaluate(() => performance.getEntriesByType('navigation').map((n) => n.toJSON()));
  assert.ok(drawn > nav.responseStart, `the mark (${drawn} ms) comes after the page arrived (${nav.responseStart} ms)`);
  // Redraws after the first one leave the mark alone.
  await page.click('#sound');
  await page.waitForSelector('#sound[aria-pressed="false"]');
  await page.click('#flip');
  assert.equal((await marks()).length, 1);

  const files = [`/g/${created.game_id}`, '/css/site.css', '/css/board.css', '/js/main.js', '/js/state-core.js', '/js/render.js'];
  for (const file of files) {
    assert.ok(['br', 'gzip'].includes(codings.get(file)), `${file} came with Content-Encoding ${codings.get(file)}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the creator may claim the win when the server says the friend has gone', async () => {
  const res = await fetch(`${site.server.url}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"first": "me"}',
  });
  const created = await res.json();
  const white = await open(new URL(created.seat_link).pathname + new URL(created.seat_link).search);
  const black = await open(new URL(created.invite_link).pathname + new URL(created.invite_link).search);
  await pressJoin(black.page);
  await waitText(white.page, '#turn', /^Your turn$/);
  await waitText(white.page, '#player-top .presence', /online/);
  assert.equal(await white.page.isHidden('#claim'), true, 'no claim while the friend is here');

  await tapPoint(white.page, 'e2');
  await tapPoint(white.page, 'e3');
  await waitMoves(black.page, ['e2-e3A']);
  await black.context.close();
  await waitText(white.page, '#player-top .presence', /away/);
  await white.page.waitForSelector('#claim:not([hidden])');
  await shot(white.page, 'claim-360');
  await white.page.click('#claim-victory');
  await waitText(white.page, '#result .result-title', /^You win$/);
  await waitText(white.page, '#result .result-reason', /The opponent left/);
  assert.equal(await white.page.isHidden('#claim'), true);
  assert.deepEqual(white.errors, []);
  await white.context.close();
});

// A game between a desktop and a phone, for the desktop's layout.
async function desktopGame(colorScheme) {
  const created = await createGame(site.server.url, { first: 'me' });
  const path = (link) => new URL(link).pathname + new URL(link).search;
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
  const watched = await site.watch(context);
  await watched.page.goto(site.server.url + path(created.seat_link));
  const friend = await open(path(created.invite_link));
  await pressJoin(friend.page);
  await waitText(watched.page, '#turn', /^Your turn$/);
  await watched.page.waitForSelector('#resign:not([hidden])');
  return { ...watched, context, friend };
}

test('at 1280x800 the board is large, nothing scrolls sideways and the controls need no scrolling', async () => {
  const { context, page, friend, errors } = await desktopGame('light');
  await noSidewaysScroll(page);
  const box = (sel) => page.locator(sel).boundingBox();
  const board = await box('svg.board');
  const view = page.viewportSize();
  assert.ok(board.width >= 0.6 * view.width, `the board is ${Math.round(board.width)} px wide in ${view.width}`);
  assert.ok(board.height >= 0.55 * view.height, `the board is ${Math.round(board.height)} px high in ${view.height}`);
  for (const sel of ['svg.board', '#player-top', '#player-bottom', '#turn', '#hint', '#flip', '#sound', '#resign']) {
    const b = await box(sel);
    assert.ok(b, `${sel} is shown`);
    assert.ok(b.y >= 0 && b.y + b.height <= view.height, `${sel} lies within the window (${Math.round(b.y)}..${Math.round(b.y + b.height)} of ${view.height})`);
    assert.ok(b.x >= 0 && b.x + b.width <= view.width, `${sel} lies within the window's width`);
  }
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await shot(page, 'game-1280');
  assert.deepEqual(errors, []);
  await friend.context.close();
  await context.close();
});

test('stones stand out from the board in the dark and the light theme', async () => {
  for (const scheme of ['dark', 'light']) {
    const { context, page, friend } = await desktopGame(scheme);
    await page.emulateMedia({ colorScheme: scheme });
    const c = await page.evaluate(() => {
      const style = (sel) => getComputedStyle(document.querySelector(sel));
      return {
        dark: matchMedia('(prefers-color-scheme: dark)').matches,
        board: style('.board-bg').fill,
        white: style('[data-sq="a1"] .stone.white .body').fill,
        whiteEdge: style('[data-sq="a1"] .stone.white .body').stroke,
        black: style('[data-sq="a5"] .stone.black .body').fill,
        blackEdge: style('[data-sq="a5"] .stone.black .body').stroke,
      };
    });
    assert.equal(c.dark, scheme === 'dark');
    if (scheme === 'dark') {
      // The whole stone against the board, as the brief for the dark theme asks.
      for (const stone of ['white', 'black']) {
        const ratio = contrastRatio(c[stone], c.board);
        assert.ok(ratio >= 3, `dark theme: the ${stone} stone (${c[stone]}) on the board (${c.board}) is ${ratio.toFixed(2)}:1`);
      }
      await shot(page, 'game-1280-dark');
    } else {
      // In the light theme a light stone may rely on its dark edge.
      for (const stone of ['white', 'black']) {
        const ratio = Math.max(contrastRatio(c[stone], c.board), contrastRatio(c[`${stone}Edge`], c.board));
        assert.ok(ratio >= 3, `light theme: the ${stone} stone on the board is ${ratio.toFixed(2)}:1`);
      }
    }
    await friend.context.close();
    await context.close();
  }
});
