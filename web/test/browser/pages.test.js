// The pages in real Chromium, served from web/ by a tiny static server
// (no game server yet): they render, log no errors, fit a 360 px phone,
// and the game page draws and plays from frames given by the test hook.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startStaticServer } from './static-server.js';
import { rawState } from '../unit/fixtures.js';

const ARTIFACTS = new URL('../../../artifacts/', import.meta.url);
let server;
let browser;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startStaticServer((req, res) => {
    if (req.method === 'POST' && req.url === '/api/games') {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'Ab3dE9', links: { seat: '/g/Ab3dE9?seat=s3cr3t', invite: '/g/Ab3dE9?invite=1', spectator: '/g/Ab3dE9' } }));
      return true;
    }
    return false;
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a page at 360 px and collects console errors and outside requests. */
async function openPhone(path) {
  const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
  const errors = [];
  const outside = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => { if (!r.url().startsWith(server.url)) outside.push(r.url()); });
  await page.goto(server.url + path, { waitUntil: 'load' });
  return { page, errors, outside };
}

async function noSidewaysScroll(page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px window`);
}

for (const [path, heading] of [['/', 'Fanorona'], ['/rules', 'How to play'], ['/which-rules', 'Which rules do we use?']]) {
  test(`${path} renders at 360 px without errors or sideways scroll`, async () => {
    const { page, errors, outside } = await openPhone(path);
    assert.equal((await page.textContent('h1')).trim(), heading);
    if (path !== '/which-rules') await page.waitForSelector('svg.board');
    await noSidewaysScroll(page);
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    await page.screenshot({ path: new URL(`page${path.replace(/\W+/g, '-')}360.png`, ARTIFACTS).pathname, fullPage: true });
    await page.close();
  });
}

test('the rules page draws a before and after picture for each capture', async () => {
  const { page } = await openPhone('/rules');
  assert.equal(await page.locator('.diagram svg.board').count(), 10);
  assert.ok(await page.locator('.pt.ghost').count() >= 9, 'captured stones are shown as ghosts');
  await page.close();
});

test('starting a game shows the link, a QR code and the rules line', async () => {
  const { page, errors } = await openPhone('/');
  await page.click('text=My friend');
  await page.click('#start');
  await page.waitForSelector('#invite:not([hidden])');
  assert.match(await page.inputValue('#invite-link'), /\/g\/Ab3dE9\?invite=1$/);
  const qr = await page.$eval('#qr', (svg) => ({ box: svg.getAttribute('viewBox'), d: svg.querySelector('path').getAttribute('d').length }));
  assert.equal(qr.box, '0 0 37 37', 'version 3 for this link, with its quiet zone');
  assert.ok(qr.d > 1000);
  assert.match(await page.textContent('.rules-line'), /capture is compulsory/);
  await noSidewaysScroll(page);
  await page.screenshot({ path: new URL('invite-360.png', ARTIFACTS).pathname, fullPage: true });
  assert.deepEqual(errors.filter((e) => !/WebSocket/.test(e)), []);
  await page.close();
});

test('the game page draws a position given in its address', async () => {
  const text = 'B.......B/........./....W..../........./W.......W b 7';
  const { page, errors } = await openPhone(`/g/demo?position=${encodeURIComponent(text)}`);
  await page.waitForSelector('svg.board .pt');
  assert.equal(await page.locator('.pt').count(), 45);
  assert.equal(await page.locator('.stone.white:not(.gone)').count(), 3);
  assert.equal(await page.locator('.stone.black:not(.gone)').count(), 2);
  assert.equal(await page.getAttribute('[data-sq="e3"]', 'aria-label'), 'e3, white stone');
  assert.equal(await page.getAttribute('[data-sq="d3"]', 'aria-label'), 'd3, empty');
  assert.match(await page.textContent('#quiet'), /7 turns without a capture/);
  await noSidewaysScroll(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('with the test hook a player chooses a line by tapping it, and the step is sent', async () => {
  const { page, errors } = await openPhone('/g/demo?test');
  await page.evaluate((state) => {
    window.fanoronaTest.receive({ type: 'welcome', role: 'white', seat_link: '/g/demo?seat=s' });
    window.fanoronaTest.receive({ type: 'state', ...state });
  }, rawState());
  await page.waitForSelector('.pt.movable');
  assert.equal(await page.locator('.pt.movable').count(), 4);
  assert.match(await page.textContent('#hint'), /You must capture/);
  await page.click('[data-sq="d3"] .hit');
  await page.click('[data-sq="e3"] .hit');
  assert.equal(await page.locator('.pt.choice').count(), 2, 'both lines light up');
  await page.screenshot({ path: new URL('choose-line-360.png', ARTIFACTS).pathname });
  await page.click('[data-sq="c3"] .hit');
  const sent = await page.evaluate(() => window.fanoronaTest.sent);
  assert.deepEqual(sent, [{ type: 'step', from: 'd3', to: 'e3', kind: 'withdrawal' }]);
  assert.equal(await page.getAttribute('[data-sq="e3"]', 'aria-label'), 'e3, white stone, selected');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the keyboard alone can make a move', async () => {
  const { page } = await openPhone('/g/demo?test');
  await page.evaluate((state) => {
    window.fanoronaTest.receive({ type: 'welcome', role: 'white' });
    window.fanoronaTest.receive({ type: 'state', ...state });
  }, rawState());
  await page.focus('[data-sq="e3"]');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-sq')), 'e2');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  const sent = await page.evaluate(() => window.fanoronaTest.sent);
  assert.deepEqual(sent, [{ type: 'step', from: 'e2', to: 'e3', kind: 'approach' }]);
  await page.close();
});
