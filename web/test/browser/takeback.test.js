// Takeback requests between friends, against the real server: White asks
// to take back its last turn, Black declines, White asks again and Black
// allows it: both boards go back to before White's turn. Then the request
// as each language shows it, and axe on it, at a phone's and a desktop's
// size.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, friendsGame, playTurnsOverApi, apiPost, waitText, waitMoves, waitBoard,
} from './harness.js';
import { audit } from './axe.js';

const site = useSite(['--intents-per-second', '1000']);
const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** A game between friends with `turns` turns played over the API, and the boards after each. */
async function gameWithTurns(turns) {
  const game = await friendsGame(site.server.url);
  let state = await playTurnsOverApi(site.server.url, game, 0);
  const boards = [state.position.split(' ')[0]];
  for (let n = 0; n < turns; n++) {
    state = await playTurnsOverApi(site.server.url, game, 1);
    boards.push(state.position.split(' ')[0]);
  }
  return { game, joined: game.joined, seats: game.seats, state, boards };
}

test('White asks to take back, Black declines, then allows: both boards go back', async () => {
  const { game, joined, state, boards } = await gameWithTurns(2);
  const white = await site.open(game.seat_link, { context: await site.browser.newContext(DESKTOP) });
  const black = await site.open(joined.seat_link);
  for (const p of [white, black]) await waitMoves(p.page, state.moves);
  assert.equal(await black.page.isHidden('#takeback-offer'), true);
  await waitText(white.page, '#ask-takeback', /^Ask to take back$/);
  await white.page.click('#ask-takeback');
  await waitText(white.page, '#ask-takeback', /^Takeback asked$/);
  assert.equal(await white.page.isDisabled('#ask-takeback'), true);
  await black.page.waitForSelector('#takeback-offer:not([hidden])');
  await waitText(black.page, '#takeback-offer p', /^Your friend asks to take back their last turn\.$/);
  assert.equal(await black.page.isHidden('#ask-takeback'), true, 'one question at a time');
  await black.page.click('#decline-takeback');
  await black.page.waitForSelector('#takeback-offer', { state: 'hidden' });
  await waitText(white.page, '#ask-takeback', /^Ask to take back$/);
  assert.equal(await white.page.isDisabled('#ask-takeback'), false);
  // Asked again, and allowed: the line before White's turn, on both pages.
  await white.page.click('#ask-takeback');
  await black.page.waitForSelector('#takeback-offer:not([hidden])');
  await black.page.click('#accept-takeback');
  for (const p of [white, black]) {
    await waitMoves(p.page, []);
    await waitBoard(p.page, boards[0]);
  }
  await waitText(white.page, '#turn', /^Your turn$/);
  assert.equal(await white.page.isHidden('#ask-takeback'), true, 'nothing of White\'s left to take back');
  assert.deepEqual([...white.errors, ...black.errors], []);
  await white.page.context().close();
  await black.page.context().close();
});

for (const [lang, asks, ask] of [
  ['en', /^Your friend asks to take back their last turn\.$/, /^Ask to take back$/],
  ['fr', /^Votre adversaire demande à annuler son dernier coup\.$/, /^Demander à annuler$/],
  ['mg', /^Mangataka hanafoana ny anjarany farany ny namanao\.$/, /^Angataho ny hanafoana$/],
]) {
  test(`in ${lang}: the request and its answers speak the page's language, and axe finds nothing`, async () => {
    const { game, joined, seats } = await gameWithTurns(2);
    await apiPost(site.server.url, `/api/games/${game.game_id}/intents`, { type: 'offer_takeback' }, seats.white);
    for (const options of [undefined, DESKTOP]) {
      const context = options ? await site.browser.newContext(options) : undefined;
      const black = await site.open(`${joined.seat_link}&lang=${lang}`, { context });
      await black.page.waitForSelector('#takeback-offer:not([hidden])');
      await waitText(black.page, '#takeback-offer p', asks);
      await audit(black.page, `a takeback request, ${lang}, ${options ? 'desktop' : 'phone'}`);
      const white = await site.open(`${game.seat_link}&lang=${lang}`, { context: black.page.context() });
      await white.page.waitForSelector('#ask-takeback:not([hidden])');
      assert.equal(await white.page.isDisabled('#ask-takeback'), true, 'already asked');
      await black.page.context().close();
    }
    // White's button before it asks, in the language.
    const fresh = await gameWithTurns(2);
    const white = await site.open(`${fresh.game.seat_link}&lang=${lang}`);
    await waitText(white.page, '#ask-takeback', ask);
    await audit(white.page, `the takeback button, ${lang}`);
    await white.page.context().close();
  });
}
