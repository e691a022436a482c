// The line under the players, against the real server, in the three
// languages: a spectator opening a game makes both players' pages say
// "1 watching", and the line goes when they leave; after a rematch both
// players' pages give the match's score ("You 1 – 0 your friend") and a
// spectator's gives it in colours, on a desktop and on a 390x844 phone.
// Every state is checked with axe.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, waitText, friendsGame, apiPost, noSidewaysScroll, shot } from './harness.js';
import { audit } from './axe.js';
import { LANGS, translatorFor } from '../catalogs.js';

const site = useSite();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exactly = (text) => new RegExp(`^${escapeRe(text)}$`);

/** `link` on the test server, in `lang`. */
function inLang(link, lang) {
  const url = new URL(site.local(link));
  url.searchParams.set('lang', lang);
  return url.href;
}

/** A page of its own (a person of their own) that has opened `link` in `lang`. */
async function person(link, lang, options) {
  const context = await site.browser.newContext(options);
  const watched = await site.watch(context);
  await watched.page.goto(inLang(link, lang));
  return watched;
}

/** The seat link of `game` for `color`. */
const seatLink = (game, color) => `${site.server.url}/g/${game.game_id}?seat=${game.seats[color]}`;

for (const lang of LANGS) {
  const t = translatorFor(lang);

  test(`a spectator makes the players' pages say 1 watching (${lang}, phone)`, async () => {
    const game = await friendsGame(site.server.url);
    const white = await person(seatLink(game, 'white'), lang, PHONE);
    const black = await person(seatLink(game, 'black'), lang, PHONE);
    await waitText(white.page, '#turn', exactly(t('game.yourTurn')));
    assert.equal(await white.page.isHidden('#series'), true, 'nobody watches yet');
    const spectator = await person(game.spectator_link, lang, PHONE);
    const one = exactly(t('game.watchers', { count: 1 }));
    await waitText(white.page, '#series', one);
    await waitText(black.page, '#series', one);
    // The catalog's words, not a key shown instead of a text.
    assert.equal(t('game.watchers', { count: 1 }), { en: '1 watching', fr: '1 spectateur', mg: 'mpijery 1' }[lang]);
    // The spectator is one of those counted.
    await waitText(spectator.page, '#series', one);
    await noSidewaysScroll(white.page);
    await audit(white.page, `a player's page with one watching (${lang})`);
    await audit(spectator.page, `the spectator's page (${lang})`);
    await shot(white.page, `series-watching-${lang}`);
    await spectator.context.close();
    await white.page.waitForSelector('#series', { state: 'hidden', timeout: 10_000 });
    await black.page.waitForSelector('#series', { state: 'hidden', timeout: 10_000 });
    await white.context.close();
    await black.context.close();
  });

  for (const [size, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    test(`after a rematch the score of the match shows (${lang}, ${size})`, async () => {
      const game = await friendsGame(site.server.url);
      const white = await person(seatLink(game, 'white'), lang, options);
      const black = await person(seatLink(game, 'black'), lang, options);
      await waitText(white.page, '#turn', exactly(t('game.yourTurn')));
      await apiPost(site.server.url, `/api/games/${game.game_id}/intents`, { type: 'resign' }, game.seats.black);
      for (const p of [white.page, black.page]) await p.waitForSelector('#rematch:not([hidden])');
      assert.equal(await white.page.isHidden('#series'), true, 'a first game has no match score');
      const moved = [white, black].map((p) => p.page.waitForURL((u) => !u.href.includes(game.game_id)));
      await black.page.click('#rematch');
      await waitText(white.page, '#result .result-rematch', exactly(t('game.rematchOffered')));
      await white.page.click('#rematch');
      await Promise.all(moved);
      // The first game's White won it and plays Black now.
      assert.equal(t('game.match.friend', { mine: 1, theirs: 0 }),
        { en: 'You 1 – 0 your friend', fr: 'Vous 1 – 0 adversaire', mg: 'Ianao 1 – 0 ny namanao' }[lang]);
      await waitText(white.page, '#series', exactly(t('game.match.friend', { mine: 1, theirs: 0 })));
      await waitText(black.page, '#series', exactly(t('game.match.friend', { mine: 0, theirs: 1 })));
      const next = new URL(white.page.url()).pathname;
      const spectator = await person(site.server.url + next, lang, options);
      await waitText(spectator.page, '#series', new RegExp(`^${escapeRe(t('game.match', { mine: 0, theirs: 1 }))}`));
      await waitText(white.page, '#series',
        exactly(`${t('game.match.friend', { mine: 1, theirs: 0 })} · ${t('game.watchers', { count: 1 })}`));
      await noSidewaysScroll(white.page);
      await audit(white.page, `a player's page after a rematch (${lang}, ${size})`);
      await audit(spectator.page, `a spectator's page after a rematch (${lang}, ${size})`);
      await shot(black.page, `series-match-${lang}-${size}`);
      for (const p of [white, black, spectator]) {
        assert.deepEqual(p.errors.filter((e) => !/WebSocket|Failed to load resource/.test(e)), []);
        await p.context.close();
      }
    });
  }
}
