// A seated player may ask to be notified of their turn, in the three
// languages, at a desktop's size and a phone's: the box shows where the
// browser has notifications (never to a spectator), the permission is
// asked only when it is ticked, the choice is remembered, and while the
// page is hidden the end of the opponent's turn brings "Your turn" with
// their move; a click on it brings the tab forward. In view, nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, phoneContext, friendsGame, playTurnOverApi, waitText } from './harness.js';
import { audit } from './axe.js';
import { translatorFor } from '../catalogs.js';

const site = useSite(['--intents-per-second', '1000']);

const SIZES = {
  desktop: (options) => site.browser.newContext({ viewport: { width: 1280, height: 800 }, ...options }),
  phone: (options) => phoneContext(site.browser, { viewport: { width: 390, height: 844 }, ...options }),
};

// Records each notification made and each permission asked for, and
// what a click on a notification focuses; the browser's own permission
// (granted to the context, or not) answers.
function stubNotifications() {
  const Real = window.Notification;
  window.notes = [];
  window.asked = 0;
  window.focused = 0;
  function Stub(title, options) {
    window.notes.push({ title, body: options && options.body });
    window.lastNote = this;
  }
  Object.defineProperty(Stub, 'permission', { get: () => Real.permission });
  Stub.requestPermission = () => {
    window.asked++;
    return Real.requestPermission();
  };
  window.Notification = Stub;
  window.focus = () => { window.focused++; };
}

function hide(page) {
  return page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

const moves = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#moves button.move').length === k, n);
const notes = (page) => page.evaluate(() => window.notes);

for (const lang of ['en', 'fr', 'mg']) {
  for (const size of ['desktop', 'phone']) {
    test(`a player notified of their turn while the page is hidden (${lang}, ${size})`, async () => {
      const t = translatorFor(lang);
      const context = await SIZES[size]();
      await context.grantPermissions(['notifications'], { origin: site.server.url });
      const game = await friendsGame(site.server.url);
      const white = game.seats.white;
      const black = game.seats.black;
      const { page, errors } = await site.open(`${game.seat_link}&lang=${lang}`, { context, init: stubNotifications });
      await waitText(page, '#turn', new RegExp(`^${t('game.yourTurn')}$`));
      const box = page.locator('label:has(#notify)');
      await box.waitFor();
      assert.equal((await box.innerText()).trim(), t('game.notify'));
      assert.equal(await page.isChecked('#notify'), false, 'off until the player turns it on');
      await box.click();
      assert.equal(await page.isChecked('#notify'), true);
      assert.equal(await page.evaluate(() => window.asked), 0, 'the permission was granted: nothing to ask');
      await audit(page, `the game page with the notification box (${lang}, ${size})`);

      // In view, the opponent's turn brings no notification.
      await playTurnOverApi(site.server.url, game.game_id, white);
      await playTurnOverApi(site.server.url, game.game_id, black);
      await moves(page, 2);
      // Hidden, the player's own turn (played elsewhere) brings none either.
      await hide(page);
      const state = await playTurnOverApi(site.server.url, game.game_id, white);
      await moves(page, 3);
      assert.deepEqual(await notes(page), []);
      // The opponent's turn ends: "Your turn", with their move.
      const after = await playTurnOverApi(site.server.url, game.game_id, black);
      await moves(page, 4);
      const move = after.moves[after.moves.length - 1];
      assert.equal(state.moves.length, 3);
      await page.waitForFunction(() => window.notes.length === 1);
      assert.deepEqual(await notes(page), [{
        title: t('game.yourTurn'),
        body: t('say.played', { color: t('color.black'), move }),
      }]);
      await page.evaluate(() => window.lastNote.onclick());
      assert.equal(await page.evaluate(() => window.focused), 1, 'a click brings the tab forward');

      // The choice is remembered.
      await page.reload();
      await waitText(page, '#turn', new RegExp(`^${t('game.yourTurn')}$`));
      assert.equal(await page.isChecked('#notify'), true);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test('without the permission, ticking the box asks for it, and a refusal leaves it off', async () => {
  const context = await SIZES.phone();
  const game = await friendsGame(site.server.url);
  const { page, errors } = await site.open(game.seat_link, { context, init: stubNotifications });
  await waitText(page, '#turn', /^Your turn$/);
  assert.equal(await page.evaluate(() => window.asked), 0, 'nothing asked on opening the page');
  await page.click('label:has(#notify)');
  await page.waitForFunction(() => window.asked === 1);
  await page.waitForFunction(() => !document.getElementById('notify').checked);
  await page.reload();
  await waitText(page, '#turn', /^Your turn$/);
  assert.equal(await page.isChecked('#notify'), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a spectator, and a browser without notifications, see no box', async () => {
  const game = await friendsGame(site.server.url);
  const watcher = await site.open(game.spectator_link, { init: stubNotifications });
  await waitText(watcher.page, '#turn', /^White to move$/);
  assert.equal(await watcher.page.isHidden('label:has(#notify)'), true, 'not to a spectator');
  const player = await site.open(game.seat_link, { init: () => { delete window.Notification; } });
  await waitText(player.page, '#turn', /^Your turn$/);
  assert.equal(await player.page.isHidden('label:has(#notify)'), true, 'not without notifications');
  assert.deepEqual([...watcher.errors, ...player.errors], []);
  await watcher.page.context().close();
  await player.page.context().close();
});
