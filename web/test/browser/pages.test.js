// The pages served by the real game server, in Chromium at phone size:
// they render without errors or outside requests and fit 360 px; the
// front page hands out an invitation; an unknown game link explains
// itself; and a player whose friend has left may claim the win once the
// server says so.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, phoneContext, watchedPage, shot, noSidewaysScroll, waitText,
  tapPoint, waitMoves,
} from './harness.js';

let server;
let browser;

before(async () => {
  // A short abandonment delay, so that a claim can be tested quickly.
  server = await startServer(['--abandon-after', '1s']);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path, options) {
  const context = await phoneContext(browser, options);
  const watched = await watchedPage(context, server.url);
  const response = await watched.page.goto(server.url + path);
  return { context, response, ...watched };
}

for (const [path, heading, boards] of [
  ['/', 'Fanorona', 1], ['/rules', 'How to play', 10], ['/which-rules', 'Which rules do we use?', 0],
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
  assert.ok(await page.locator('.pt.ghost').count() >= 9, 'captured stones are shown as ghosts');
  await context.close();
});

test('an unknown game link shows a friendly page with a way to a new game', async () => {
  const { context, page, response } = await open('/g/NoSuchGame');
  assert.equal(response.status(), 404);
  assert.match(await page.textContent('h1'), /not found/i);
  const link = page.locator('a[href="/"]', { hasText: /new game/i });
  assert.equal(await link.count(), 1);
  await noSidewaysScroll(page);
  await shot(page, 'not-found-360', { fullPage: true });
  await link.click();
  await page.waitForSelector('#start');
  await context.close();
});

test('the creator may claim the win when the server says the friend has gone', async () => {
  const res = await fetch(`${server.url}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"first": "me"}',
  });
  const created = await res.json();
  const white = await open(new URL(created.seat_link).pathname + new URL(created.seat_link).search);
  const black = await open(new URL(created.invite_link).pathname + new URL(created.invite_link).search);
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
