// How the board marks a turn, against the real server: taken stones fade
// nearest first and leave a mark, the last turn is drawn on every board,
// movable, selected and threatened stones differ by shape, and the choice
// between two lines dims the rest and offers two buttons that the mouse
// and the keyboard can use. White plays at a desktop in the light theme,
// Black on a phone in the dark one, and a spectator watches.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, phoneContext, shot, waitText, waitMoves, createGame, plainStep, tapPoint, pressJoin,
  waitLastTurn, arrowTo,
} from './harness.js';

const site = useSite();
let game;
const people = {};

async function open(name, link, context) {
  people[name] = await site.open(link, { context });
  return people[name];
}

const desktop = (options = {}) => site.browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });

// A new game whose friend joins through the API: White's page alone.
async function gameForWhite(name) {
  const created = await createGame(site.server.url, { first: 'me' });
  const invite = new URL(created.invite_link).searchParams.get('invite');
  const res = await fetch(`${site.server.url}/api/games/${created.game_id}/join`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite }),
  });
  assert.equal(res.status, 200);
  const white = await open(name, created.seat_link, await desktop());
  await waitText(white.page, '#turn', /^Your turn$/);
  return white.page;
}

// Records, in the page, the delay each point's stone is given to fade.
function recordFades() {
  window.fades = [];
  new MutationObserver((changes) => {
    for (const c of changes) {
      const delay = c.target.style.getPropertyValue('--delay');
      if (delay) window.fades.push([c.target.dataset.sq, parseFloat(delay)]);
    }
  }).observe(document.querySelector('svg.board .points'), { subtree: true, attributeFilter: ['style'] });
}

// How a point is drawn: its ring, whether its stone is lifted, its cross.
function marks(sq) {
  const pt = document.querySelector(`svg.board [data-sq="${sq}"]`);
  const halo = getComputedStyle(pt.querySelector('.halo'));
  const cross = pt.querySelector('.cross');
  return {
    ring: halo.visibility === 'visible' ? parseFloat(halo.strokeWidth) : 0,
    lifted: getComputedStyle(pt.querySelector('.stone')).transform !== 'none',
    cross: getComputedStyle(cross).visibility === 'visible' ? Math.round(cross.getBoundingClientRect().width) : 0,
  };
}

test('a capture fades its stones nearest first, and then every board marks the last turn', async () => {
  game = await createGame(site.server.url, { first: 'me' });
  const white = await open('white', game.seat_link, await desktop());
  const black = await open('black', game.invite_link, await phoneContext(site.browser, { colorScheme: 'dark' }));
  await pressJoin(black.page);
  await open('spectator', game.spectator_link, await desktop({ colorScheme: 'dark' }));
  await waitText(white.page, '#turn', /^Your turn$/);
  for (const { page } of Object.values(people)) await page.evaluate(recordFades);

  await tapPoint(white.page, 'e2');
  await tapPoint(white.page, 'e3');
  for (const { page } of Object.values(people)) {
    await waitMoves(page, ['e2-e3A']);
    const fades = await page.evaluate(() => window.fades);
    assert.deepEqual(fades.sort((a, b) => a[1] - b[1]).map(([sq]) => sq), ['e4', 'e5'], 'e4, next to e3, goes first');
    await waitLastTurn(page, 'e2', 'e3', ['e4', 'e5']);
  }
  await waitText(black.page, '#player-bottom .taken', /^$/);
  await waitText(black.page, '#player-top .taken', /^2 taken$/);
  assert.equal(await black.page.textContent('#player-top .count'), '22 stones');
  assert.equal(await black.page.textContent('#player-bottom .count'), '20 stones');
  await shot(people.spectator.page, 'board-last-turn-dark');
});

test('movable, selected, threatened and taken stones are marked by different shapes', async () => {
  const { page } = people.black;
  await waitText(page, '#turn', /^Your turn$/);
  const step = await plainStep(site.server.url, game.game_id, (s) => s.captures.length > 0);
  const movable = await page.evaluate(marks, step.from);
  assert.ok(movable.ring > 0 && !movable.lifted && movable.cross === 0, `movable: ${JSON.stringify(movable)}`);
  await tapPoint(page, step.from);
  await page.waitForSelector('.pt.selected');
  const selected = await page.evaluate(marks, step.from);
  assert.ok(selected.ring > movable.ring && selected.lifted, `selected: ${JSON.stringify(selected)}`);
  const threatened = await page.evaluate(marks, step.captures[0]);
  const taken = await page.evaluate(marks, 'e4');
  assert.ok(threatened.cross > 0 && taken.cross > 0, 'a stone to take and a point taken last turn are crossed');
  assert.ok(threatened.cross > 1.5 * taken.cross, `the taken point's cross is small: ${threatened.cross} ${taken.cross}`);
  await shot(page, 'board-selected-dark');

  await tapPoint(page, step.to);
  await page.waitForFunction(() => !document.querySelector('svg.board .pt.taken[data-sq="e4"]'));
  await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2
    || !document.getElementById('end-turn').hidden, null, { timeout: 10_000 });
  if (await page.isVisible('#end-turn')) await page.click('#end-turn');
  const notation = `${step.from}-${step.to}${step.kind === 'approach' ? 'A' : 'W'}`;
  for (const { page: p } of Object.values(people)) {
    await waitMoves(p, ['e2-e3A', notation]);
    await waitLastTurn(p, step.from, step.to, step.captures);
  }
});

test('choosing between two lines dims the rest and offers two buttons; a click takes that line', async () => {
  const page = await gameForWhite('chooser');
  await tapPoint(page, 'd3');
  await page.waitForSelector('.pt.selected');
  const light = { selected: await page.evaluate(marks, 'd3'), movable: await page.evaluate(marks, 'e2') };
  assert.ok(light.selected.ring > light.movable.ring && light.selected.lifted && !light.movable.lifted,
    `in the light theme too: ${JSON.stringify(light)}`);
  assert.equal(await page.isHidden('#line-choice'), true, 'no buttons before a line is asked for');
  await tapPoint(page, 'e3');
  await page.waitForSelector('#line-choice:not([hidden])');
  const buttons = page.locator('#line-choice button');
  assert.deepEqual(await buttons.allTextContents(), ['Take f3 · approach', 'Take c3 · withdrawal']);
  const opacity = (sq) => page.evaluate((s) => Number(getComputedStyle(
    document.querySelector(`svg.board [data-sq="${s}"] .stone`)).opacity), sq);
  await page.waitForFunction(() => ['a1', 'i5'].every((s) => Number(getComputedStyle(
    document.querySelector(`svg.board [data-sq="${s}"] .stone`)).opacity) < 0.5), null, { timeout: 10_000 });
  assert.equal(await opacity('f3'), 1, 'the stones of the two lines do not');
  assert.equal(await opacity('c3'), 1);
  await shot(page, 'board-choose-line');
  await buttons.filter({ hasText: 'f3' }).click();
  await waitMoves(page, ['d3-e3A']);
  assert.equal(await page.isHidden('#line-choice'), true);
  await waitLastTurn(page, 'd3', 'e3', ['f3']);
});

test('the keyboard alone reaches the line buttons and takes a line', async () => {
  const page = await gameForWhite('keyboard');
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate(() => Boolean(document.activeElement?.closest('[data-sq]')))) break;
    await page.keyboard.press('Tab');
  }
  await arrowTo(page, 'd3');
  await page.keyboard.press('Enter');
  await arrowTo(page, 'e3');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#line-choice:not([hidden])');
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.textContent === 'Take c3 · withdrawal')) break;
  }
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Take c3 · withdrawal');
  await page.keyboard.press('Enter');
  await waitMoves(page, ['d3-e3W']);
  await waitLastTurn(page, 'd3', 'e3', ['c3']);
});

test('nothing failed or left the site', async () => {
  for (const who of Object.values(people)) {
    assert.deepEqual(who.errors, []);
    assert.deepEqual(who.outside, []);
  }
});
