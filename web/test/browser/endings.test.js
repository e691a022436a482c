// The panel at a game's two ends, at a desktop's size and a phone's, in
// the three languages. Before the first move: no Offer a draw, no record
// buttons (a spectator sees "No moves yet" alone). A game won against the
// computer: the result first, Play again and New game under it, then a
// Take back that says the game goes on, and no Hint; taking back plays
// on. And the line to choose is clicked with a mouse, tapped on a phone.
// After resigning the board and the result are in view, on a phone too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, phoneContext, createGame, waitText, tapPoint, waitMoves, friendsGame, playTurnsOverApi,
} from './harness.js';
import { audit } from './axe.js';
import { translatorFor } from '../catalogs.js';

const site = useSite([
  '--allow-custom-start', '--computer-step-delay', '0ms', '--computer-min-think', '0ms', '--intents-per-second', '1000',
]);

const SIZES = {
  desktop: () => site.browser.newContext({ viewport: { width: 1280, height: 800 } }),
  phone: () => phoneContext(site.browser),
};
const LANGS = ['en', 'fr', 'mg'];

// White on e3 takes Black's last stone, on e5, by stepping to e4.
const LAST_STONE = '....B..../........./....W..../........./......... w';

const top = (page, sel) => page.locator(sel).evaluate((n) => n.getBoundingClientRect().top);

for (const [size, context] of Object.entries(SIZES)) {
  test(`before the first move there is no draw to offer and no record to save (${size})`, async () => {
    const game = await createGame(site.server.url, { first: 'me' });
    const invite = new URL(game.invite_link).searchParams.get('invite');
    const res = await fetch(`${site.server.url}/api/games/${game.game_id}/join`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite }),
    });
    assert.equal(res.status, 200);
    const white = await site.open(game.seat_link, { context: await context() });
    const watcher = await site.open(game.spectator_link, { context: await context() });
    await waitText(white.page, '#turn', /^Your turn$/);
    await white.page.waitForSelector('#resign:not([hidden])');
    assert.ok(await white.page.isHidden('#offer-draw'), 'no Offer a draw before any move');
    for (const { page } of [white, watcher]) {
      await page.waitForSelector('#no-moves:not([hidden])');
      assert.ok(await page.isHidden('#record'), 'no record buttons beside "No moves yet"');
    }
    await audit(watcher.page, `a spectator before the first move (${size})`);
    await tapPoint(white.page, 'e2');
    await tapPoint(white.page, 'e3');
    for (const { page } of [white, watcher]) {
      await waitMoves(page, ['e2-e3A']);
      await page.waitForSelector('#record:not([hidden])');
    }
    await white.page.waitForSelector('#offer-draw:not([hidden])');
    assert.deepEqual([...white.errors, ...watcher.errors], []);
    await white.page.context().close();
    await watcher.page.context().close();
  });

  for (const lang of LANGS) {
    test(`a game won against the computer shows the result first, then Take back to play on (${size}, ${lang})`, async () => {
      const t = translatorFor(lang);
      const game = await createGame(site.server.url, { opponent: 'computer', level: 1, first: 'me', position: LAST_STONE });
      const { page, errors } = await site.open(`${game.seat_link}&lang=${lang}`, { context: await context() });
      await page.waitForSelector('#computer-actions:not([hidden])');
      await waitText(page, '#takeback', new RegExp(`^${t('game.takeback')}$`));
      assert.ok(await page.isVisible('#ask-hint'), 'Hint while the game goes on');
      await tapPoint(page, 'e3');
      await tapPoint(page, 'e4');
      await waitText(page, '#result .result-title', new RegExp(`^${t('result.you')}$`));

      await page.waitForSelector('#rematch:not([hidden])');
      assert.ok(await page.isHidden('#ask-hint'), 'no Hint once the game is over');
      await waitText(page, '#takeback', new RegExp(`^${t('game.takebackPlayOn')}$`));
      assert.ok(await page.isEnabled('#takeback'));
      const order = await Promise.all(['#result .result-title', '#rematch', '#new-game', '#takeback'].map((s) => top(page, s)));
      assert.ok(order[0] < order[1] && order[1] <= order[2] && order[2] < order[3], `result, then Play again and New game, then Take back: ${order}`);
      assert.equal(await page.textContent('#rematch'), t('game.playAgain'));
      await audit(page, `a game won against the computer (${size}, ${lang})`);

      await page.click('#takeback');
      await page.waitForSelector('#result', { state: 'hidden' });
      await waitText(page, '#takeback', new RegExp(`^${t('game.takeback')}$`));
      assert.ok(await page.isVisible('#ask-hint'), 'the game goes on, with Hint');
      await waitText(page, '#turn', new RegExp(`^${t('game.yourTurn')}$`));
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test(`the line to take is clicked with a mouse and tapped on a phone (${size}, ${lang})`, async () => {
      const t = translatorFor(lang);
      const game = await createGame(site.server.url, { opponent: 'computer', level: 1, first: 'me' });
      const { page, errors } = await site.open(`${game.seat_link}&lang=${lang}`, { context: await context() });
      await page.waitForSelector('.pt.movable');
      await tapPoint(page, 'd3');
      await tapPoint(page, 'e3');
      await page.waitForSelector('.pt.choice');
      const key = size === 'phone' ? 'game.hint.chooseLine' : 'game.hint.chooseLineClick';
      assert.equal(await page.textContent('#hint'), t(key));
      if (lang === 'en') assert.match(t(key), size === 'phone' ? /Tap a stone/ : /Click a stone/);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}

/** Whether the element is wholly inside the window. */
const inView = (page, sel) => page.locator(sel).evaluate((n) => {
  const r = n.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
});

// See: issues/23. On a phone Resign sits under the move list, so the
// player who resigns has scrolled the board away; the result came under
// a board half out of the window.
const RESIGN_SIZES = {
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
};
for (const [size, options] of Object.entries(RESIGN_SIZES)) {
  test(`issue 23: after resigning the board and the result are in view (${size})`, async () => {
    const game = await friendsGame(site.server.url);
    await playTurnsOverApi(site.server.url, game, 10);
    const { page, errors } = await site.open(game.seat_link, { context: await site.browser.newContext(options) });
    await waitText(page, '#turn', /^Your turn$/);
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    assert.ok(await inView(page, '#resign'), 'Resign is in view');
    if (size === 'phone') assert.equal(await inView(page, '#board'), false, 'the board is scrolled away');
    await page.click('#resign');
    await page.click('#resign-yes');
    await waitText(page, '#result .result-reason', /^By resignation/);
    assert.ok(await inView(page, '#board'), 'the board is in view');
    assert.ok(await inView(page, '#result'), 'the result is in view');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
