// Opening a game record: a game is played over the API, its record is
// downloaded as a page would save it, then pasted, or chosen as a file,
// on /replay, which steps through it on the board to the game's own
// position; a text that is not a record is explained. At a phone's and a
// desktop's size, in the three languages, and axe finds nothing in the
// light and the dark theme.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  useSite, createGame, friendsGame, playTurnsOverApi, noSidewaysScroll, waitText, shot,
} from './harness.js';
import { audit } from './axe.js';

let dir;
const site = useSite([], {
  setUp: () => { dir = mkdtempSync(join(tmpdir(), 'fanorona-replay-')); },
  tearDown: () => { if (dir) rmSync(dir, { recursive: true, force: true }); },
});

const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** A game of `turns` turns between friends, played over the API; its last state and record. */
async function playedGame(turns) {
  const game = await friendsGame(site.server.url);
  const state = await playTurnsOverApi(site.server.url, game, turns);
  const record = await (await fetch(`${site.server.url}/api/games/${game.game_id}/record`)).text();
  return { state, record };
}

/** The stones the page's board shows, as position rows, rank 5 first. */
function rows(page) {
  return page.evaluate(() => {
    const at = new Map();
    for (const g of document.querySelectorAll('#replay-board svg.board [data-sq]')) {
      const stone = g.querySelector('.stone');
      const gone = !stone || stone.classList.contains('gone');
      at.set(g.dataset.sq, gone ? '.' : stone.classList.contains('white') ? 'W' : 'B');
    }
    const out = [];
    for (let rank = 5; rank >= 1; rank--) out.push([...'abcdefghi'].map((f) => at.get(`${f}${rank}`)).join(''));
    return out.join('/');
  });
}

const boardOf = (position) => position.split(' ')[0];

test('a downloaded record, pasted, steps through to the game\'s position, on a phone and a desktop', async () => {
  const { state, record } = await playedGame(6);
  for (const options of [undefined, DESKTOP]) {
    const context = options ? await site.browser.newContext(options) : undefined;
    const { page, errors, outside } = await site.open('/replay', { context });
    await page.fill('#record-text', record);
    await page.click('#open-record button[type=submit]');
    await page.waitForSelector('#replay:not([hidden])');
    assert.deepEqual(await page.$$eval('#replay-moves button.move', (bs) => bs.map((b) => b.textContent)), state.moves);
    assert.equal(await rows(page), boardOf(state.position), 'opened at the end');
    await waitText(page, '#replay-where', /Turn 6 of 6/);
    await waitText(page, '#replay-players', /White: the player who started the game · Black: the invited friend · Not finished/);
    assert.equal(await page.isDisabled('#replay-next'), true);
    // Back to the start by the buttons, then forward by the keys.
    await page.click('#replay-first');
    assert.equal(await rows(page), boardOf(state.start_position));
    await waitText(page, '#replay-where', /The start, before 6 turns/);
    await page.focus('#replay-next');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await waitText(page, '#replay-where', new RegExp(`Turn 2 of 6: ${state.moves[1]}`));
    assert.equal(await page.getAttribute('#replay-moves li:nth-child(2) button', 'aria-current'), 'step');
    await page.keyboard.press('End');
    assert.equal(await rows(page), boardOf(state.position));
    await page.click('#replay-moves li:nth-child(3) button');
    await waitText(page, '#replay-where', /Turn 3 of 6/);
    await noSidewaysScroll(page);
    await shot(page, `replay-${options ? 'desktop' : 'phone'}`, { fullPage: true });
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    await page.context().close();
  }
});

test('the front page and a game\'s record lead to the replay page', async () => {
  const { page } = await site.open('/');
  await Promise.all([page.waitForURL(/\/replay$/), page.click('footer a[href="/replay"]')]);
  assert.equal((await page.textContent('h1')).trim(), 'Open a game record');
  const game = await createGame(site.server.url, { first: 'me' });
  await page.goto(game.spectator_link.replace(/^https?:\/\/[^/]+/, site.server.url));
  await page.waitForSelector('#record a[href="/replay"]', { state: 'attached' });
  await page.context().close();
});

test('a record file chosen opens the same game', async () => {
  const { state, record } = await playedGame(3);
  const path = join(dir, 'game.txt');
  writeFileSync(path, record);
  const { page, errors } = await site.open('/replay');
  await page.setInputFiles('#record-file', path);
  await page.waitForSelector('#replay:not([hidden])');
  assert.deepEqual(await page.$$eval('#replay-moves button.move', (bs) => bs.map((b) => b.textContent)), state.moves);
  assert.equal(await rows(page), boardOf(state.position));
  assert.deepEqual(errors, []);
  await page.context().close();
});

for (const [lang, title, bad, start] of [
  ['en', 'Open a game record', /not a game record that can be replayed \(.*turn 2/, /The start, before 1 turn$/],
  ['fr', 'Ouvrir une partie enregistrée', /pas une partie enregistrée .*turn 2/, /Le début, avant 1 tour$/],
  ['mg', 'Hanokatra firaketana lalao', /Tsy firaketana lalao .*turn 2/, /Ny fiandohana, alohan'ny anjara 1$/],
]) {
  test(`in ${lang}: the page speaks its language and explains a text that is not a record`, async () => {
    const { page, errors } = await site.open(`/replay?lang=${lang}`);
    assert.equal((await page.textContent('h1')).trim(), title);
    await page.click('#open-record button[type=submit]');
    await page.waitForSelector('#record-error:not([hidden])');
    await page.fill('#record-text', '1. d3-e3A\n2. d3-e3A\n');
    await page.click('#open-record button[type=submit]');
    await waitText(page, '#record-error', bad);
    assert.equal(await page.isHidden('#replay'), true, 'nothing opened');
    await page.fill('#record-text', '1. d3-e3A\n');
    await page.click('#open-record button[type=submit]');
    await page.waitForSelector('#replay:not([hidden])');
    assert.equal(await page.isHidden('#record-error'), true);
    await page.click('#replay-first');
    await waitText(page, '#replay-where', start);
    // The browser logs the refused request itself; nothing else went wrong.
    assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
    await page.context().close();
  });
}

for (const colorScheme of ['light', 'dark']) {
  test(`axe finds nothing on the replay page, empty, refused and open (${colorScheme})`, async () => {
    const { record } = await playedGame(2);
    for (const size of [{ width: 360, height: 740 }, { width: 1280, height: 800 }]) {
      const context = await site.browser.newContext({ viewport: size, colorScheme });
      const { page } = await site.open('/replay', { context });
      await audit(page, `/replay, empty (${size.width} px, ${colorScheme})`);
      await page.click('#open-record button[type=submit]');
      await page.waitForSelector('#record-error:not([hidden])');
      await audit(page, `/replay, refused (${size.width} px, ${colorScheme})`);
      await page.fill('#record-text', record);
      await page.click('#open-record button[type=submit]');
      await page.waitForSelector('#replay:not([hidden])');
      await page.click('#replay-back');
      await audit(page, `/replay, open (${size.width} px, ${colorScheme})`);
      await context.close();
    }
  });
}
