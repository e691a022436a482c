// The sound switch and draw offers, against the real server: two phones
// play one game while a third watches. Every page counts the sounds it
// starts through a spy on AudioContext put in place before the page's own
// scripts run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, shot, waitText, waitMoves, createGame, plainStep, tapPoint, pressJoin,
} from './harness.js';

const site = useSite();
let game;
const people = {};
const played = [];

// Runs in the page before its scripts: every oscillator started is a
// sound played, counted in window.soundsPlayed.
function spyOnAudio() {
  const Real = window.AudioContext;
  if (!Real) return;
  window.soundsPlayed = 0;
  window.AudioContext = class extends Real {
    createOscillator() {
      const osc = super.createOscillator();
      const start = osc.start.bind(osc);
      osc.start = (...args) => {
        window.soundsPlayed += 1;
        return start(...args);
      };
      return osc;
    }
  };
}

async function open(name, link) {
  people[name] = await site.open(link, { init: spyOnAudio });
  return people[name];
}

const sounds = (page) => page.evaluate(() => window.soundsPlayed);

async function play(page) {
  const step = await plainStep(site.server.url, game.game_id);
  const notation = `${step.from}-${step.to}${step.kind === 'approach' ? 'A' : step.kind === 'withdrawal' ? 'W' : ''}`;
  await waitText(page, '#turn', /^Your turn$/);
  await tapPoint(page, step.from);
  await tapPoint(page, step.to);
  await page.waitForFunction(() => !document.getElementById('end-turn').hidden || document.getElementById('turn').textContent !== 'Your turn', null, { timeout: 10_000 });
  if (await page.isVisible('#end-turn')) await page.click('#end-turn');
  played.push(notation);
  await Promise.all(Object.values(people).map((p) => waitMoves(p.page, played)));
}

test('a move sounds on both players\' pages while the sound is on', async () => {
  game = await createGame(site.server.url, { first: 'me' });
  const white = await open('white', game.seat_link);
  const black = await open('black', game.invite_link);
  await pressJoin(black.page);
  await open('spectator', game.spectator_link);
  await waitText(black.page, '#turn', /^Your friend’s turn$/);
  await waitText(white.page, '#sound', /^Sound on$/);
  assert.equal(await white.page.getAttribute('#sound', 'aria-pressed'), 'true');
  await play(white.page);
  assert.ok(await sounds(white.page) > 0, 'the mover hears the stone');
  assert.ok(await sounds(black.page) > 0, 'the friend hears it too');
});

test('turning the sound off is remembered after a reload, and nothing sounds', async () => {
  const { page } = people.black;
  await page.click('#sound');
  await waitText(page, '#sound', /^Sound off$/);
  assert.equal(await page.getAttribute('#sound', 'aria-pressed'), 'false');
  await page.reload();
  await waitMoves(page, played);
  await waitText(page, '#sound', /^Sound off$/);
  assert.equal(await page.getAttribute('#sound', 'aria-pressed'), 'false');
  assert.equal(await sounds(page), 0);

  const white = people.white.page;
  const before = await sounds(white);
  await play(page);
  await play(white);
  assert.equal(await sounds(page), 0, 'no sound for one\'s own move or the friend\'s');
  assert.ok(await sounds(white) >= before + 2, 'the other page still sounds');
  await shot(page, 'sound-off');
});

test('a draw offer can be declined, and both pages say so', async () => {
  const white = people.white.page;
  const black = people.black.page;
  await white.click('#offer-draw');
  await waitText(white, '#offer-draw', /^Draw offered$/);
  assert.equal(await white.isDisabled('#offer-draw'), true);
  await black.waitForSelector('#offer:not([hidden])', { timeout: 10_000 });
  await waitText(black, '#offer', /Your friend offers a draw/);
  await waitText(black, '#live', /offers a draw/);
  assert.equal(await black.isHidden('#offer-draw'), true, 'no counter-offer button while answering');
  await shot(black, 'draw-offered');
  await black.click('#decline-draw');
  await black.waitForSelector('#offer', { state: 'hidden', timeout: 10_000 });
  await waitText(white, '#offer-draw', /^Offer a draw$/);
  assert.equal(await white.isDisabled('#offer-draw'), false);
  await waitText(white, '#live', /declined/);
  await waitText(white, '#draw-declined', /^Your friend declined the draw\.$/);
  assert.equal(await black.isHidden('#draw-declined'), true, 'only the one who offered is told');
  assert.equal(await white.isHidden('#offer'), true);
  assert.equal(await people.spectator.page.isHidden('#result'), true, 'the game goes on');
});

test('an accepted draw ends the game for everyone, with its reason', async () => {
  const white = people.white.page;
  const black = people.black.page;
  await black.click('#offer-draw');
  await waitText(black, '#offer-draw', /^Draw offered$/);
  await white.waitForSelector('#offer:not([hidden])', { timeout: 10_000 });
  await white.click('#accept-draw');
  for (const { page } of Object.values(people)) {
    await waitText(page, '#result .result-title', /^Draw$/);
    await waitText(page, '#result .result-reason', /^By agreement\.$/);
    assert.equal(await page.isHidden('#offer'), true);
    assert.equal(await page.isHidden('#offer-draw'), true);
    assert.equal(await page.isHidden('#draw-declined'), true);
  }
  await shot(people.spectator.page, 'draw-spectator', { fullPage: true });
  await shot(black, 'draw-result');
});

test('nothing failed or left the site', async () => {
  for (const who of Object.values(people)) {
    assert.deepEqual(who.errors, []);
    assert.deepEqual(who.outside, []);
  }
});
