// The move list follows the game, at a desktop's size and a phone's: a
// game of more turns than the list shows at once keeps its newest turn in
// view as turns are played, until the player scrolls back; browsing a
// turn keeps it in view, and "Back to the game" follows again. A capture
// chain's turn is in the list as it grows, marked as in progress, in the
// three languages, with no accessibility violation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, phoneContext, friendsGame, playTurnsOverApi, waitText, waitMoves, tapPoint, noSidewaysScroll, CHAIN,
} from './harness.js';
import { audit } from './axe.js';

const site = useSite(['--allow-custom-start', '--intents-per-second', '1000']);

const SIZES = {
  desktop: () => site.browser.newContext({ viewport: { width: 1280, height: 800 } }),
  phone: () => phoneContext(site.browser),
};

/** A game between two seats held from outside the browser. */
async function twoSeats(body = { first: 'me' }) {
  return { ...(await friendsGame(site.server.url, body)), turns: [] };
}

/** Plays `n` whole turns, each side in turn, ending chains at once. */
async function playTurns(game, n) {
  game.turns = (await playTurnsOverApi(site.server.url, game, n)).moves;
}

// Where the newest turn stands against the list's scroll box.
function newest() {
  const list = document.getElementById('moves');
  const box = list.getBoundingClientRect();
  const last = list.lastElementChild.getBoundingClientRect();
  return {
    overflows: list.scrollHeight > list.clientHeight + 10,
    inView: last.top >= box.top - 1 && last.bottom <= box.bottom + 1,
    scrollTop: list.scrollTop,
  };
}

for (const [size, context] of Object.entries(SIZES)) {
  test(`the move list keeps the newest turn in view, unless the player scrolled back (${size})`, async () => {
    const game = await twoSeats();
    await playTurns(game, 22);
    const { page } = await site.open(game.spectator_link, { context: await context() });
    await waitMoves(page, game.turns);
    let seen = await page.evaluate(newest);
    assert.ok(seen.overflows, 'the list has more turns than it shows');
    assert.ok(seen.inView, `a page opened late shows the newest turn: ${JSON.stringify(seen)}`);

    await playTurns(game, 3);
    await waitMoves(page, game.turns);
    seen = await page.evaluate(newest);
    assert.ok(seen.inView, `the list followed the new turns: ${JSON.stringify(seen)}`);

    // Scrolled back, the list stays where the player put it.
    await page.hover('#moves');
    await page.mouse.wheel(0, -2000);
    await page.waitForFunction(() => document.getElementById('moves').scrollTop === 0);
    await playTurns(game, 2);
    await waitMoves(page, game.turns);
    seen = await page.evaluate(newest);
    assert.equal(seen.scrollTop, 0, 'a list scrolled back is not pulled to the end');
    assert.ok(!seen.inView, 'the newest turn is out of view, as the player chose');

    // Browsing a turn, then back to the game: following again.
    await page.click('#moves button[data-ply="2"]');
    await waitText(page, '#viewing', /Turn 2 of/);
    await page.evaluate(() => { document.getElementById('moves').scrollTop = 0; });
    await playTurns(game, 1);
    await waitMoves(page, game.turns);
    assert.equal((await page.evaluate(newest)).scrollTop, 0, 'browsing, the list is not pulled to the end');
    await page.click('#back-live');
    await page.waitForSelector('#viewing', { state: 'hidden' });
    seen = await page.evaluate(newest);
    assert.ok(seen.inView, `back to the game, the list shows the newest turn: ${JSON.stringify(seen)}`);
    await playTurns(game, 1);
    await waitMoves(page, game.turns);
    assert.ok((await page.evaluate(newest)).inView, 'and follows the game again');
    await noSidewaysScroll(page);
    await page.context().close();
  });
}

for (const [size, context] of Object.entries(SIZES)) {
  for (const [lang, inProgress] of [['en', 'in progress'], ['fr', 'en cours'], ['mg', 'mbola lalaovina']]) {
    test(`a capture chain's turn is in the list as it grows, marked in progress (${size}, ${lang})`, async () => {
      const game = await twoSeats({ first: 'me', position: CHAIN });
      const { page, errors } = await site.open(`${game.seat_link}&lang=${lang}`, { context: await context() });
      const watcher = await site.open(`${game.spectator_link}?lang=${lang}`, { context: await context() });
      await page.waitForSelector('.pt.movable');
      await tapPoint(page, 'e2');
      await tapPoint(page, 'e3');
      for (const p of [page, watcher.page]) {
        await waitText(p, '#moves .partial', new RegExp(`^e2-e3A${inProgress}$`));
        assert.equal(await p.locator('#moves button.move').count(), 0, 'no finished turn yet');
        assert.ok((await p.evaluate(newest)).inView, 'the turn in progress is in view');
      }
      await audit(page, `the move list during a chain (${size}, ${lang})`);
      await tapPoint(page, 'd3');
      await waitMoves(watcher.page, ['e2-e3A-d3A']);
      assert.equal(await watcher.page.locator('#moves .partial').count(), 0, 'the finished turn replaces it');
      assert.deepEqual(errors, []);
      await page.context().close();
      await watcher.page.context().close();
    });
  }
}
