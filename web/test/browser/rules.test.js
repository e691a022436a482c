// The rules page in Chromium against the real server: its pictures are as
// wide as the text column on a desktop and as the screen on a phone, with
// coordinates; each board to try a rule on is solved with the mouse and
// with the keyboard alone, and says so; a wrong turn, or a step the rules
// refuse, is explained, and the board can be tried again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, noSidewaysScroll, waitText, shot,
} from './harness.js';

const site = useSite();

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

async function open(options) {
  const watched = await site.open('/rules', { context: await site.browser.newContext(options) });
  // Every board has its first answer from the rules: its line reads.
  await watched.page.waitForFunction(() => [...document.querySelectorAll('.try-says')]
    .every((p) => p.textContent.trim()));
  return watched;
}

// How each board is solved: the points to tap in order, and a line
// button or End turn where the turn asks for one.
const SOLUTIONS = [
  { id: 'move', taps: ['d2', 'e3'], says: /^Right: d2-e3 is a paika/ },
  { id: 'approach', taps: ['d2', 'e3'], says: /^Right: d2-e3A takes 2 stones\.$/ },
  { id: 'withdrawal', taps: ['e3', 'e2'], says: /^Right: e3-e2W takes 2 stones\.$/ },
  { id: 'both', taps: ['d3', 'e3'], take: /withdrawal/, says: /^Right: d3-e3W takes 3 stones\.$/ },
  { id: 'must', taps: ['g3', 'h3'], says: /^Right: g3-h3A takes 1 stone\.$/ },
  { id: 'chain', taps: ['d3', 'e3', 'e4', 'd4', 'c3', 'b4'], says: /^Right: d3-e3W-e4A-d4A-c3A-b4W takes 5 stones\.$/ },
  { id: 'stop', taps: ['e2', 'e3'], end: true, says: /^Right: e2-e3A takes 2 stones\.$/ },
];

const says = (id) => `#try-${id} .try-says`;

/** Waits until a board has its answer from the rules (aria-busy goes). */
async function settled(page, id) {
  await page.waitForFunction((sel) => !document.querySelector(sel).hasAttribute('aria-busy'), `#try-${id}`);
}

async function tap(page, id, sq) {
  await page.click(`#try-${id} [data-sq="${sq}"] .hit`);
  await settled(page, id);
}

async function solveByMouse(page, { id, taps, take, end, says: want }) {
  for (const sq of taps) await tap(page, id, sq);
  if (take) await page.locator(`#try-${id} .try-choices button`, { hasText: take }).click();
  if (end) await page.click(`#try-${id} .try-end`);
  await waitText(page, says(id), want);
  assert.equal(await page.getAttribute(says(id), 'data-tone'), 'right', id);
}

// Moves the keyboard focus over one board with the arrow keys to `sq`,
// choosing each arrow from where the points are on the screen.
async function arrowTo(page, id, sq) {
  for (let i = 0; i < 20; i++) {
    const at = await page.evaluate(() => document.activeElement?.getAttribute('data-sq'));
    if (at === sq) return;
    const [a, b] = await Promise.all([at, sq].map((s) => page.locator(`#try-${id} [data-sq="${s}"] .hit`).boundingBox()));
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const key = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'ArrowRight' : 'ArrowLeft') : (dy > 0 ? 'ArrowDown' : 'ArrowUp');
    await page.keyboard.press(key);
  }
  throw new Error(`focus never reached ${sq} on ${id}`);
}

// A board has one point in the tab order (the game page's roving focus):
// Tab reaches it, and the arrows move from there.
async function focusBoard(page, id) {
  const tabbable = page.locator(`#try-${id} svg.board [tabindex="0"]`);
  assert.equal(await tabbable.count(), 1, `one point of ${id} is in the tab order`);
  await tabbable.focus();
}

async function solveByKeyboard(page, { id, taps, take, end, says: want }) {
  await focusBoard(page, id);
  for (const sq of taps) {
    await arrowTo(page, id, sq);
    await page.keyboard.press('Enter');
    await settled(page, id);
  }
  if (take) {
    await page.locator(`#try-${id} .try-choices button`, { hasText: take }).focus();
    await page.keyboard.press('Enter');
  }
  if (end) {
    await page.focus(`#try-${id} .try-end`);
    await page.keyboard.press('Enter');
  }
  await waitText(page, says(id), want);
  assert.equal(await page.getAttribute(says(id), 'data-tone'), 'right', id);
}

test('every board to try a rule on is solved with the mouse, and says so', async () => {
  const { context, page, errors, outside } = await open(DESKTOP);
  assert.equal(await page.locator('.try').count(), SOLUTIONS.length);
  for (const solution of SOLUTIONS) await solveByMouse(page, solution);
  // The finished board takes no more steps, and draws the turn it took.
  assert.equal(await page.locator('#try-chain .pt.movable').count(), 0);
  assert.equal(await page.locator('#try-chain .pt.taken').count(), 5);
  await shot(page, 'rules-solved-desktop', { fullPage: true });
  assert.deepEqual(errors, []);
  assert.deepEqual(outside, []);
  await context.close();
});

test('every board to try a rule on is solved with the keyboard alone, and says so', async () => {
  const { context, page, errors } = await open(PHONE);
  for (const solution of SOLUTIONS) await solveByKeyboard(page, solution);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a wrong turn is explained, and the board starts again', async () => {
  const { context, page } = await open(DESKTOP);
  // A capture, but by withdrawal.
  await tap(page, 'approach', 'b1');
  await tap(page, 'approach', 'c1');
  await waitText(page, says('approach'), /b1-c1W took 1 stone by withdrawal.*asks for an approach/);
  assert.equal(await page.getAttribute(says('approach'), 'data-tone'), 'wrong');
  assert.equal(await page.locator('#try-approach .pt.movable').count(), 0, 'the finished turn is shown, not played on');
  await page.click('#try-approach .try-again');
  await waitText(page, says('approach'), /^Choose a marked stone/);
  assert.equal(await page.locator('#try-approach .pt.taken').count(), 0);
  await solveByMouse(page, SOLUTIONS[1]);

  // The other line of the same step. While the line is chosen, the rest
  // of the board steps back, and its empty points stay empty.
  await tap(page, 'both', 'd3');
  await tap(page, 'both', 'e3');
  const opacity = (sq) => page.$eval(`#try-both [data-sq="${sq}"] .stone`, (s) => getComputedStyle(s).opacity);
  assert.equal(await opacity('a1'), '0', 'an empty point');
  assert.equal(await opacity('c3'), '1', 'a stone of a line');
  await tap(page, 'both', 'f3');
  await waitText(page, says('both'), /d3-e3A took 1 stone by approach/);

  // A paika that does not reach e3.
  await tap(page, 'move', 'c2');
  await tap(page, 'move', 'c3');
  await waitText(page, says('move'), /c2-c3 is a paika, but it does not reach e3/);

  // Stopping too soon, and going on past the point.
  await tap(page, 'chain', 'd3');
  await tap(page, 'chain', 'e3');
  await page.click('#try-chain .try-end');
  await waitText(page, says('chain'), /you stopped after 1 capture, but the stone could still capture/);
  await page.click('#try-chain .try-again');
  for (const sq of ['d3', 'e3', 'f4']) await tap(page, 'chain', sq);
  await waitText(page, says('chain'), /d3-e3W-f4W takes 2 stones\. Another path takes five/);
  for (const sq of ['e2', 'e3', 'd3']) await tap(page, 'stop', sq);
  await waitText(page, says('stop'), /this task was to stop after 1 capture/);
  await context.close();
});

test('a step the rules refuse says why, and the turn goes on', async () => {
  const { context, page } = await open(DESKTOP);
  // A paika while a capture exists: the stone cannot even be picked up.
  await tap(page, 'must', 'c2');
  await waitText(page, says('must'), /could only make a paika.*A capture is possible, so it is compulsory/);
  assert.equal(await page.getAttribute(says('must'), 'data-tone'), 'wrong');
  assert.equal(await page.locator('#try-must .pt.selected').count(), 0);
  await solveByMouse(page, SOLUTIONS[4]);

  // In a chain: the same direction again, then a point already stood on.
  await tap(page, 'chain', 'd3');
  await tap(page, 'chain', 'e3');
  await tap(page, 'chain', 'f3');
  await waitText(page, says('chain'), /may not step the same way twice in a row/);
  assert.equal(await page.getAttribute('#try-chain [data-sq="e3"]', 'aria-label'), 'e3, white stone, selected');
  await tap(page, 'chain', 'e4');
  await tap(page, 'chain', 'd4');
  await tap(page, 'chain', 'd3');
  await waitText(page, says('chain'), /already stood on that point this turn/);
  for (const sq of ['c3', 'b4']) await tap(page, 'chain', sq);
  await waitText(page, says('chain'), /^Right/);
  await context.close();
});

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
    inside: svg.closest('.try') ? 'try' : 'diagram',
  })));
}

test('on a 1280 px desktop every board is as wide as the text column, with its coordinates', async () => {
  const { context, page } = await open(DESKTOP);
  const column = await columnWidth(page);
  assert.ok(column > 500, `the column is ${column} px`);
  const all = await boards(page);
  assert.equal(all.filter((b) => b.inside === 'diagram').length, 10);
  assert.equal(all.filter((b) => b.inside === 'try').length, SOLUTIONS.length);
  for (const [i, b] of all.entries()) {
    assert.equal(b.coords, 'abcdefghi12345', `board ${i} has its coordinates`);
    assert.ok(b.width >= column - 0.5, `board ${i} (${b.inside}) is ${b.width} px in a ${column} px column`);
  }
  await context.close();
});

test('on a 390 px phone every board is as wide as the screen', async () => {
  const { context, page } = await open(PHONE);
  for (const [i, b] of (await boards(page)).entries()) {
    assert.ok(b.width >= 390 - 0.5, `board ${i} (${b.inside}) is ${b.width} px on a 390 px screen`);
    assert.equal(b.coords, 'abcdefghi12345');
  }
  await noSidewaysScroll(page);
  const size = await page.$eval('#try-chain .coord', (c) => parseFloat(getComputedStyle(c).fontSize)
    * c.ownerSVGElement.getScreenCTM().a);
  assert.ok(size >= 11, `coordinates are ${size} px high on a phone`);
  await context.close();
});

test('the line to take is clicked with a mouse and tapped on a phone', async () => {
  for (const [options, verb] of [[DESKTOP, /^This step can take either line\. Click a stone/], [PHONE, /^This step can take either line\. Tap a stone/]]) {
    const { context, page } = await open(options);
    await tap(page, 'both', 'd3');
    await tap(page, 'both', 'e3');
    await waitText(page, says('both'), verb);
    await context.close();
  }
});
