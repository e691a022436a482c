// The rules page in Chromium against the real server: its pictures are as
// wide as the text column on a desktop and as the screen on a phone, with
// coordinates.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, watchedPage, noSidewaysScroll } from './harness.js';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

async function open(options) {
  const context = await browser.newContext(options);
  const watched = await watchedPage(context, server.url);
  await watched.page.goto(`${server.url}/rules`);
  await watched.page.waitForSelector('main svg.board');
  return { context, ...watched };
}

// The width the text column gives its content.
function columnWidth(page) {
  return page.evaluate(() => {
    const main = document.querySelector('main.page');
    const style = getComputedStyle(main);
    return main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  });
}

async function boards(page) {
  return page.$$eval('main svg.board', (svgs) => svgs.map((svg) => ({
    width: svg.getBoundingClientRect().width,
    coords: [...svg.querySelectorAll('.coord')].map((c) => c.textContent).join(''),
  })));
}

test('on a 1280 px desktop every picture is as wide as the text column, with its coordinates', async () => {
  const { context, page } = await open(DESKTOP);
  const column = await columnWidth(page);
  assert.ok(column > 500, `the column is ${column} px`);
  const all = await boards(page);
  assert.equal(all.length, 10);
  for (const [i, b] of all.entries()) {
    assert.equal(b.coords, 'abcdefghi12345', `board ${i} has its coordinates`);
    assert.ok(b.width >= column - 0.5, `board ${i} is ${b.width} px in a ${column} px column`);
  }
  await context.close();
});

test('on a 390 px phone every picture is as wide as the screen, with coordinates one can read', async () => {
  const { context, page } = await open(PHONE);
  for (const [i, b] of (await boards(page)).entries()) {
    assert.ok(b.width >= 390 - 0.5, `board ${i} is ${b.width} px on a 390 px screen`);
    assert.equal(b.coords, 'abcdefghi12345');
  }
  await noSidewaysScroll(page);
  const size = await page.$eval('main svg.board .coord', (c) => parseFloat(getComputedStyle(c).fontSize)
    * c.ownerSVGElement.getScreenCTM().a);
  assert.ok(size >= 11, `coordinates are ${size} px high on a phone`);
  await context.close();
});
