// The tab tells a seated player what needs them, in the three languages,
// at a desktop's size and a phone's: the title starts with "Your friend
// joined" when the friend has just joined, "Your turn" on the player's
// turn and "Draw offered" when a draw is offered to them, and the icon
// carries a dot meanwhile; on the opponent's turn, and to a spectator,
// the title is the plain one and the icon has no dot.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, phoneContext, createGame, apiPost, playTurnOverApi } from './harness.js';
import { audit } from './axe.js';
import { translatorFor } from '../catalogs.js';

const site = useSite();

const SIZES = {
  desktop: () => site.browser.newContext({ viewport: { width: 1280, height: 800 } }),
  phone: () => phoneContext(site.browser),
};

const post = (path, body, seat) => apiPost(site.server.url, path, body, seat);
const playTurn = (gameId, seat) => playTurnOverApi(site.server.url, gameId, seat);

/** Waits until the tab reads `title` and its icon is `icon`. */
async function waitTab(page, title, icon) {
  try {
    await page.waitForFunction(([want, href]) => document.title === want
      && document.querySelector('link[rel=icon]').getAttribute('href') === href, [title, icon], { timeout: 10_000 });
  } catch (e) {
    const now = await page.evaluate(() => [document.title, document.querySelector('link[rel=icon]').getAttribute('href')]);
    throw new Error(`the tab never read ${title} with ${icon}: ${now.join(' with ')}`, { cause: e });
  }
}

const PLAIN = '/favicon.svg';
const DOT = '/favicon-turn.svg';

for (const [lang, size] of [['en', 'desktop'], ['en', 'phone'], ['fr', 'desktop'], ['fr', 'phone'], ['mg', 'desktop'], ['mg', 'phone']]) {
  test(`the tab says what needs the player, and nothing on the opponent's turn (${lang}, ${size})`, async () => {
    const t = translatorFor(lang);
    const plain = t('game.doctitle');
    const says = (key) => `${t(key)} · ${plain}`;
    const game = await createGame(site.server.url, { first: 'me' });
    const { page, errors } = await site.open(`${game.seat_link}&lang=${lang}`, { context: await SIZES[size]() });
    const watcher = await site.open(`${game.spectator_link}?lang=${lang}`, { context: await SIZES[size]() });
    await page.waitForSelector('#waiting-friend:not([hidden])');
    await waitTab(page, plain, PLAIN);

    const invite = new URL(game.invite_link).searchParams.get('invite');
    const friend = await post(`/api/games/${game.game_id}/join`, { invite });
    await waitTab(page, says('game.tabJoined'), DOT);
    await playTurn(game.game_id, game.seat);
    await waitTab(page, plain, PLAIN);
    await playTurn(game.game_id, friend.seat);
    await waitTab(page, says('game.yourTurn'), DOT);
    await audit(page, `the game page on the player's turn (${lang}, ${size})`);
    await post(`/api/games/${game.game_id}/intents`, { type: 'offer_draw' }, friend.seat);
    await waitTab(page, says('game.tabDraw'), DOT);
    await post(`/api/games/${game.game_id}/intents`, { type: 'decline_draw' }, game.seat);
    await waitTab(page, says('game.yourTurn'), DOT);
    await playTurn(game.game_id, game.seat);
    await waitTab(page, plain, PLAIN);

    // A spectator's tab stays plain throughout.
    await watcher.page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n, 3);
    await waitTab(watcher.page, plain, PLAIN);
    const res = await fetch(`${site.server.url}${DOT}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /^image\/svg\+xml/);
    assert.deepEqual(errors, []);
    await page.context().close();
    await watcher.page.context().close();
  });
}
