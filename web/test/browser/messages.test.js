// Preset messages between friends, against the real server: Black opens
// the "Say…" menu and sends "Good game"; White sees it beside Black's name
// and hears it through the live region, in each language, at a phone's
// and a desktop's size, and the board does not move for it. White's mute
// hides Black's next message, and is remembered after a reload.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { useSite, friendsGame, apiPost, waitText, noSidewaysScroll, shot } from './harness.js';
import { audit } from './axe.js';

const site = useSite();
const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
};

const LANGS = [
  { lang: 'en', say: /^Say…$/, good: 'Good game', thanks: 'Thanks', spoken: /^Black says: Good game$/, mute: /^Mute messages$/ },
  { lang: 'fr', say: /^Dire…$/, good: 'Belle partie', thanks: 'Merci', spoken: /^Les Noirs disent\u202f: Belle partie$/, mute: /^Masquer les messages$/ },
  { lang: 'mg', say: /^Hiteny…$/, good: 'Lalao tsara', thanks: 'Misaotra', spoken: /^Hoy ny Mainty: Lalao tsara$/, mute: /^Afeno ny hafatra$/ },
];

// Where the board starts in the page (not the window: clicks scroll it).
const boardTop = (page) => page.evaluate(() => document.getElementById('board').getBoundingClientRect().top + scrollY);

for (const { lang, say, good, thanks, spoken, mute } of LANGS) {
  for (const [size, options] of Object.entries(SIZES)) {
    test(`${lang}, ${size}: Black says Good game, White sees and hears it, then mutes Black`, async () => {
      const game = await friendsGame(site.server.url);
      const blackContext = await site.browser.newContext(options);
      const whiteContext = await site.browser.newContext(options);
      const black = await site.open(`${game.joined.seat_link}&lang=${lang}`, { context: blackContext });
      const white = await site.open(`${game.seat_link}&lang=${lang}`, { context: whiteContext });
      const watcherContext = await site.browser.newContext(options);
      const watcher = await site.open(`${game.spectator_link}?lang=${lang}`, { context: watcherContext });
      for (const p of [black, white]) await waitText(p.page, '#say summary', say);
      assert.equal(await watcher.page.isHidden('#say'), true, 'a spectator says nothing');
      await waitText(white.page, '#mute', mute);
      assert.equal(await white.page.getAttribute('#mute', 'aria-pressed'), 'false');
      const top = await boardTop(black.page);

      // The menu opens without moving the board.
      await black.page.click('#say summary');
      await black.page.waitForSelector('#say-list button[value=good_game]', { state: 'visible' });
      assert.equal(await black.page.locator('#say-list button').count(), 6);
      await waitText(black.page, '#say-list button[value=good_game]', new RegExp(`^${good}$`));
      assert.equal(await boardTop(black.page), top, 'the open menu does not push the board down');
      await noSidewaysScroll(black.page);
      await audit(black.page, `the Say menu open, ${lang}, ${size}`);
      await shot(black.page, `messages-menu-${lang}-${size}`);
      await black.page.click('#say-list button[value=good_game]');
      assert.equal(await black.page.getAttribute('#say', 'open'), null, 'the menu closes once sent');

      // White sees it beside Black's name (the top row) and hears it; so do the watcher and Black.
      await white.page.waitForSelector('#player-top .said:not([hidden])');
      await waitText(white.page, '#player-top .said', new RegExp(`^${good}$`));
      await waitText(white.page, '#live', spoken);
      assert.equal(await white.page.isHidden('#player-bottom .said'), true);
      await waitText(watcher.page, '.player .said:not([hidden])', new RegExp(`^${good}$`));
      await waitText(black.page, '#player-bottom .said', new RegExp(`^${good}$`));
      assert.equal(await boardTop(black.page), top, 'a message shown does not push the board down');
      assert.equal(await boardTop(white.page), top);
      await noSidewaysScroll(white.page);
      await audit(white.page, `a message shown, ${lang}, ${size}`);
      await shot(white.page, `messages-shown-${lang}-${size}`);

      // Muted, White sees nothing of Black's next one; the watcher does.
      await white.page.click('#mute');
      assert.equal(await white.page.getAttribute('#mute', 'aria-pressed'), 'true');
      assert.equal(await white.page.isHidden('#player-top .said'), true, 'the message shown goes at once');
      await sleep(2100);
      await apiPost(site.server.url, `/api/games/${game.game_id}/intents`, { type: 'message', text: 'thanks' }, game.seats.black);
      await waitText(watcher.page, '.player .said:not([hidden])', new RegExp(`^${thanks}$`));
      await waitText(white.page, '#turn', /\S/);
      const seen = await white.page.evaluate(() => [...document.querySelectorAll('.said')].map((b) => (b.hidden ? '' : b.textContent)).join(''));
      assert.equal(seen, '', 'muted: nothing of the friend\'s');
      assert.doesNotMatch(await white.page.textContent('#live'), new RegExp(thanks));

      // Remembered after a reload: a page that connects late shows the latest, unless muted.
      await white.page.reload();
      await waitText(white.page, '#mute', mute);
      await white.page.waitForFunction(() => document.getElementById('mute').getAttribute('aria-pressed') === 'true');
      await watcher.page.reload();
      await waitText(watcher.page, '.player .said:not([hidden])', new RegExp(`^${thanks}$`));
      assert.equal(await white.page.isHidden('#player-top .said'), true, 'muted after a reload too');
      await audit(white.page, `muted, ${lang}, ${size}`);

      // Unmuted, the next one shows again.
      await white.page.click('#mute');
      assert.equal(await white.page.getAttribute('#mute', 'aria-pressed'), 'false');
      await sleep(2100);
      await black.page.click('#say summary');
      await black.page.click('#say-list button[value=thanks]');
      await waitText(white.page, '#player-top .said', new RegExp(`^${thanks}$`));
      await white.page.waitForSelector('#player-top .said:not([hidden])');
      assert.deepEqual([...black.errors, ...white.errors, ...watcher.errors], []);
      for (const c of [blackContext, whiteContext, watcherContext]) await c.close();
    });
  }
}

test('a game against the computer has no messages', async () => {
  const res = await fetch(`${site.server.url}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ opponent: 'computer', level: 1, first: 'me' }),
  });
  const game = await res.json();
  const { page, errors } = await site.open(game.seat_link);
  await waitText(page, '#turn', /^Your turn$/);
  assert.equal(await page.isHidden('#say'), true);
  assert.equal(await page.isHidden('#mute'), true);
  assert.deepEqual(errors, []);
  await page.context().close();
});
