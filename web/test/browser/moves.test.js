// Moving stones by dragging, and what a finished turn leaves on the board,
// against the real server. One game: White plays at a desktop with the
// mouse, Black on a touch phone, and a spectator who asked for reduced
// motion watches. Then a game from a set-up position near the 50-turn
// draw shows the quiet-turn counter turning prominent.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, phoneContext, shot, waitText, waitMoves, createGame, plainStep, pointCentre, tapPoint,
  pressJoin, waitLastTurn,
} from './harness.js';

const site = useSite(['--allow-custom-start']);
let game;
const people = {};

async function open(name, link, context) {
  people[name] = await site.open(link, { context });
  return people[name];
}

const desktop = () => site.browser.newContext({ viewport: { width: 1280, height: 800 } });

test('White drags a stone with the mouse at a desktop; the destination previews its capture', async () => {
  game = await createGame(site.server.url, { first: 'me' });
  const white = await open('white', game.seat_link, await desktop());
  const black = await open('black', game.invite_link, await phoneContext(site.browser));
  await pressJoin(black.page);
  await waitText(white.page, '#turn', /^Your turn$/);
  await waitText(black.page, '#turn', /^Your friend’s turn$/);
  const watcher = await phoneContext(site.browser);
  const spectator = await open('spectator', game.spectator_link, watcher);
  await spectator.page.emulateMedia({ reducedMotion: 'reduce' });
  await waitText(spectator.page, '#turn', /^White to move$/);

  const { page } = white;
  const a = await pointCentre(page, 'e2');
  const b = await pointCentre(page, 'e3');
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.waitForSelector('.drag .stone.white:not([visibility="hidden"])', { timeout: 10_000 });
  await page.waitForFunction(() => ['e4', 'e5'].every((sq) => document.querySelector(`[data-sq="${sq}"]`).classList.contains('preview')));
  assert.ok(await page.$eval('[data-sq="e2"]', (g) => g.classList.contains('selected')), 'the dragged stone is held');
  await shot(page, 'drag-desktop-held');
  await page.mouse.up();
  await Promise.all(Object.values(people).map((p) => waitMoves(p.page, ['e2-e3A'])));
  assert.equal(await page.getAttribute('.drag .stone', 'visibility'), 'hidden', 'the dragged stone is put down');
});

test('after a capture every board keeps the last turn\'s path and marks the taken stones', async () => {
  for (const { page } of Object.values(people)) await waitLastTurn(page, 'e2', 'e3', ['e4', 'e5']);
  await shot(people.black.page, 'last-turn-black');
  await shot(people.white.page, 'last-turn-white');
});

test('taken stones fade with a transition, and with reduced motion without one; then their points are empty', async () => {
  const fading = (page) => page.evaluate(() => {
    const pt = document.querySelector('[data-sq="e4"]');
    return {
      duration: getComputedStyle(pt.querySelector('.stone')).transitionDuration,
      opacity: Number(getComputedStyle(pt.querySelector('.stone')).opacity),
      mark: getComputedStyle(pt.querySelector('.cross')).visibility,
      running: document.getAnimations().length,
    };
  });
  const moving = await fading(people.white.page);
  assert.match(moving.duration, /[1-9]/, 'without the preference the stones fade');
  const still = await fading(people.spectator.page);
  assert.ok(still.duration.split(',').every((d) => parseFloat(d) === 0), `transition-duration ${still.duration}`);
  assert.equal(still.running, 0, 'nothing animates');
  assert.equal(still.opacity, 0, 'the taken stone is gone, not a ghost');
  assert.equal(still.mark, 'visible', 'its point is marked as taken');
});

test('Black drags a stone by touch on a phone, and the page does not scroll instead', async () => {
  const { page } = people.black;
  await waitText(page, '#turn', /^Your turn$/);
  // A step along the screen's vertical, the direction a finger would scroll.
  const step = await plainStep(site.server.url, game.game_id, (s) => s.from[0] === s.to[0]);
  const a = await pointCentre(page, step.from);
  const b = await pointCentre(page, step.to);
  const scrolled = await page.evaluate(() => window.scrollY);
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: p ? [{ x: Math.round(p.x), y: Math.round(p.y), id: 1 }] : [],
  });
  await touch('touchStart', a);
  for (let i = 1; i <= 8; i++) {
    await touch('touchMove', { x: a.x + ((b.x - a.x) * i) / 8, y: a.y + ((b.y - a.y) * i) / 8 });
  }
  await page.waitForSelector('.drag .stone.black:not([visibility="hidden"])', { timeout: 10_000 });
  await shot(page, 'drag-touch-held');
  await touch('touchEnd', null);
  // The step may leave further captures open: then Black ends the turn.
  await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2
    || !document.getElementById('end-turn').hidden, null, { timeout: 10_000 });
  if (await page.isVisible('#end-turn')) await page.click('#end-turn');
  const notation = `${step.from}-${step.to}${step.kind === 'approach' ? 'A' : step.kind === 'withdrawal' ? 'W' : ''}`;
  await Promise.all(Object.values(people).map((p) => waitMoves(p.page, ['e2-e3A', notation])));
  assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'the drag did not scroll the page');
  await cdp.detach();
  if (step.captures.length) {
    for (const { page: p } of Object.values(people)) await waitLastTurn(p, step.from, step.to, step.captures);
  }
});

test('the quiet-turn counter turns prominent at 40 turns without a capture', async () => {
  const quiet = await createGame(site.server.url, { first: 'me', position: 'W......../........./........./........./........B w 39' });
  const white = await open('quiet-white', quiet.seat_link, await phoneContext(site.browser));
  const black = await open('quiet-black', quiet.invite_link, await phoneContext(site.browser));
  await pressJoin(black.page);
  await waitText(white.page, '#quiet', /^39 turns without a capture$/);
  const look = (page) => page.evaluate(() => {
    const s = getComputedStyle(document.getElementById('quiet'));
    return { warning: document.getElementById('quiet').classList.contains('warning'), weight: Number(s.fontWeight), size: parseFloat(s.fontSize), color: s.color };
  });
  const calm = await look(white.page);
  assert.equal(calm.warning, false);
  await waitText(white.page, '#turn', /^Your turn$/);
  await tapPoint(white.page, 'a5');
  await tapPoint(white.page, 'b5');
  for (const { page } of [white, black]) {
    await waitMoves(page, ['a5-b5']);
    await waitText(page, '#quiet', /^Draw after 10 more quiet turns$/);
    const loud = await look(page);
    assert.equal(loud.warning, true);
    assert.ok(loud.weight >= 700 && loud.weight > calm.weight, `font-weight ${calm.weight} → ${loud.weight}`);
    assert.ok(loud.size > calm.size, `font-size ${calm.size} → ${loud.size}`);
    assert.notEqual(loud.color, calm.color);
  }
  await black.page.reload();
  await waitText(black.page, '#quiet', /^Draw after 10 more quiet turns$/);
  assert.equal((await look(black.page)).warning, true, 'prominent when the page opens at 40');
  await shot(black.page, 'quiet-40', { fullPage: true });
});

test('nothing failed or left the site', async () => {
  for (const who of Object.values(people)) {
    assert.deepEqual(who.errors, []);
    assert.deepEqual(who.outside, []);
  }
});
