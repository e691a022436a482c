// The site in Malagasy, French and English, in Chromium on a 360 px
// phone. In each language: every page and game state a player meets
// (the front page and its invitation, the friend's invitation page, the
// board waiting, at the start, choosing a line, in a capture chain,
// finished, watched, against the computer, the rules pages with their
// boards played, the error pages) has no English left in the Malagasy
// and French pages (text, names a screen reader says, titles), no
// catalog key shown instead of a text, no accessibility violation, no
// sideways scroll and no clipped button or player's name. Then the
// language switcher: it keeps a player in their game and seat, and a
// friend on their invitation; the creator's invitation link and what it
// shows open in the creator's language.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, waitText, tapPoint, createGame, pressJoin, noSidewaysScroll, CHAIN,
} from './harness.js';
import { audit } from './axe.js';
import { CATALOGS, LANGS, translatorFor } from '../catalogs.js';

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

const site = useSite(['--allow-custom-start', '--computer-step-delay', '0ms', '--computer-min-think', '0ms'], {
  // Invitations here expire at once: its game links lead to the page that
  // explains an expired invitation.
  servers: { expiring: ['--invite-ttl', '0s'] },
});
const visited = {};

const { local } = site;
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every text of a catalog, plural forms included. */
function texts(catalog) {
  return Object.values(catalog).flatMap((m) => (typeof m === 'object' ? Object.values(m) : [m]));
}

/**
 * The pieces of English a page in `lang` must not show: each English
 * message cut at its placeholders, pieces of at least four letters,
 * except those the language's own catalog also uses (names such as
 * Fanorona or ICGA, the notation, a word both languages share).
 */
function englishPieces(lang) {
  const own = texts(CATALOGS[lang]).join('\n').replace(/\{\w+\}/g, ' ').toLowerCase();
  const pieces = new Set();
  for (const text of texts(CATALOGS.en)) {
    for (const piece of text.split(/\{\w+\}/)) {
      const p = piece.replace(/^[\s.,:;·—–()?!…]+|[\s.,:;·—–()?!…]+$/g, '');
      if ((p.match(/[A-Za-z]/g) || []).length < 4) continue;
      if (own.includes(p.toLowerCase())) continue;
      pieces.add(p);
    }
  }
  return [...pieces];
}

/** What a person can read or hear on the page now. */
function readable(page) {
  return page.evaluate(() => {
    const out = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt], meta[content]')) {
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
      if (el.tagName === 'META' && /description|og:title|og:description|og:image:alt/.test(el.getAttribute('name') || el.getAttribute('property') || '')) {
        out.push(el.getAttribute('content'));
      }
    }
    return out.join('\n');
  });
}

/**
 * Buttons, button-like links, lists to choose from and the players' names
 * whose text does not fit (cut at the side, or below their last line) or
 * that stick out of their container's content or the window.
 */
function clipped(page) {
  return page.evaluate(() => {
    const bad = [];
    const selector = 'button, a.button, .choice, .level, .opponent, .langs a, .site-header nav a, .player .who, '
      + '.level-choice';
    for (const el of document.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      // Not drawn (in a closed <details>, say) is not clipped.
      if (!r.width || !r.height || !el.checkVisibility({ visibilityProperty: true })) continue;
      const box = el.parentElement.getBoundingClientRect();
      const style = getComputedStyle(el.parentElement);
      const right = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
      if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
        || r.left < -1 || r.right > Math.min(innerWidth, right) + 1) {
        bad.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${el.textContent.trim()}" (${Math.round(r.left)}–${Math.round(r.right)}, text ${el.scrollWidth} in ${el.clientWidth})`);
      }
    }
    return bad;
  });
}

const KEY = new RegExp(`\\b(?:${[...new Set(Object.keys(CATALOGS.en).map((k) => k.split('.')[0]))].join('|')})\\.[a-z][\\w.]*[a-zA-Z]`);

for (const lang of LANGS) {
  test(`every page and state reads well in ${lang} on a 360 px phone`, async (t) => {
    const tr = translatorFor(lang);
    const said = (key, params) => new RegExp(`^${escapeRe(tr(key, params))}$`);
    const pieces = lang === 'en' ? [] : englishPieces(lang);
    const context = await site.browser.newContext(PHONE);
    const { page, errors, outside } = await site.watch(context);
    visited[lang] = 0;
    const check = (what) => t.test(what, async () => {
      visited[lang] += 1;
      assert.equal(await page.getAttribute('html', 'lang'), lang, `${what}: <html lang>`);
      const text = await readable(page);
      assert.doesNotMatch(text, KEY, `${what}: a catalog key is shown`);
      const english = pieces.filter((p) => new RegExp(`(^|[^\\p{L}])${escapeRe(p)}($|[^\\p{L}])`, 'u').test(text));
      assert.deepEqual(english, [], `${what}: English in the ${lang} page`);
      await noSidewaysScroll(page);
      assert.deepEqual(await clipped(page), [], `${what}: clipped texts`);
      await audit(page, `${what} (${lang})`);
    });

    // The first page names the language; the others follow the remembered choice.
    await page.goto(`${site.server.url}/?lang=${lang}`);
    await page.waitForSelector('.picture svg.board');
    await check('front page');
    await page.check('input[name=opponent][value=computer]');
    await page.waitForSelector('#computer-form:not([hidden])');
    await check('front page, against the computer');
    await page.check('input[name=opponent][value=friend]');
    await page.click('#start');
    await page.waitForSelector('#invite:not([hidden]) #qr path');
    await check('front page, the invitation');
    const link = await page.inputValue('#invite-link');
    assert.equal(new URL(link).searchParams.get('lang'), lang, 'the invitation opens in the creator’s language');

    await page.click('#to-board');
    await waitText(page, '#waiting-friend', said('game.waitingForFriend'));
    await check('game page, the creator waiting');
    const id = new URL(page.url()).pathname.split('/').pop();
    const invite = new URL(link).searchParams.get('invite');
    const join = await fetch(`${site.server.url}/api/games/${id}/join`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite }),
    });
    assert.equal(join.status, 200);
    await waitText(page, '#turn', said('game.yourTurn'));
    await page.waitForSelector('.pt.movable');
    await check('game page at the start');
    await tapPoint(page, 'd3');
    await tapPoint(page, 'e3');
    await page.waitForSelector('.pt.choice');
    await check('game page, choosing a line');

    const friendGame = await createGame(site.server.url, { first: 'me' });
    await page.goto(local(friendGame.invite_link));
    await page.waitForSelector('#join');
    await check('invitation page');
    await pressJoin(page);
    await waitText(page, '#turn', said('game.theirTurn'));
    await check('game page, waiting for the first move');

    const chain = await createGame(site.server.url, { first: 'me', position: CHAIN });
    const chainJoin = await fetch(`${site.server.url}/api/games/${chain.game_id}/join`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invite: new URL(chain.invite_link).searchParams.get('invite') }),
    });
    assert.equal(chainJoin.status, 200);
    await page.goto(local(chain.seat_link));
    await waitText(page, '#turn', said('game.yourTurn'));
    await tapPoint(page, 'e2');
    await tapPoint(page, 'e3');
    await page.waitForSelector('#end-turn:not([hidden])');
    await check('game page in a capture chain');
    await page.click('#end-turn');
    await waitText(page, '#turn', said('game.theirTurn'));
    await page.click('#resign');
    await page.click('#resign-yes');
    await waitText(page, '#result .result-title', said('result.they'));
    await check('game page, finished by resignation');

    const watched = await createGame(site.server.url, { first: 'me' });
    await page.goto(local(watched.spectator_link));
    await page.waitForSelector('#turn');
    await check('game page, watching');

    // The longest of the computer's names, in every language.
    const computer = await createGame(site.server.url, { opponent: 'computer', level: 6, first: 'me' });
    await page.goto(local(computer.seat_link));
    await waitText(page, '#turn', said('game.yourTurn'));
    await page.waitForSelector('#computer-actions:not([hidden])');
    await check('game page against the computer');

    await page.goto(`${site.server.url}/rules`);
    await page.waitForSelector('.diagram svg.board');
    await page.waitForFunction(() => [...document.querySelectorAll('.try-says')].every((p) => p.textContent));
    const tryTap = async (which, sq) => {
      await page.click(`#try-${which} [data-sq="${sq}"] .hit`);
      await page.waitForFunction((sel) => !document.querySelector(sel).hasAttribute('aria-busy'), `#try-${which}`);
    };
    for (const sq of ['d3', 'e3']) await tryTap('both', sq);
    for (const sq of ['d3', 'e3', 'f3']) await tryTap('chain', sq);
    for (const sq of ['b1', 'c1']) await tryTap('approach', sq);
    await page.waitForSelector('#try-both .try-choices:not([hidden])');
    await check('rules page, its boards played');
    await page.goto(`${site.server.url}/which-rules`);
    await page.waitForSelector('h1');
    await check('which rules page');
    const missing = await page.goto(`${site.server.url}/g/NoSuchGame`);
    assert.equal(missing.status(), 404);
    await check('unknown game link');
    const stale = await createGame(site.expiring.url, { first: 'me' });
    const gone = await page.goto(`${stale.invite_link}&lang=${lang}`);
    assert.equal(gone.status(), 410);
    await check('expired invitation');

    const expected = /Failed to load resource: the server responded with a status of 4(04|10)/;
    assert.deepEqual(errors.filter((e) => !expected.test(e)), []);
    assert.deepEqual(outside.filter((u) => !u.startsWith(site.expiring.url)), []);
    await context.close();
  });
}

test('every state was checked in every language', () => {
  for (const lang of LANGS) assert.equal(visited[lang], 16, lang);
});

test('the switcher keeps a player in their game and seat, and a friend on their invitation', async () => {
  const mg = translatorFor('mg');
  const fr = translatorFor('fr');
  const context = await site.browser.newContext(PHONE);
  const page = await context.newPage();
  // The creator, in Malagasy.
  await page.goto(`${site.server.url}/?lang=mg`);
  await page.click('#start');
  await page.waitForSelector('#invite:not([hidden])');
  const link = await page.inputValue('#invite-link');
  assert.match(await page.textContent('#copy'), new RegExp(`^${escapeRe(mg('home.copy'))}$`));

  // The friend opens the Malagasy link in a browser set to English.
  const friendContext = await site.browser.newContext({ ...PHONE, locale: 'en-GB' });
  const friend = await friendContext.newPage();
  await friend.goto(local(link));
  await friend.waitForSelector('#join');
  assert.equal(await friend.getAttribute('html', 'lang'), 'mg');
  assert.equal(await friend.textContent('#join'), mg('invite.join'));
  // ... switches to French, and is still invited to the same game.
  await Promise.all([friend.waitForURL(/lang=fr/), friend.click('.langs a[hreflang=fr]')]);
  const there = new URL(friend.url());
  assert.equal(there.pathname, new URL(link).pathname);
  assert.equal(there.searchParams.get('invite'), new URL(link).searchParams.get('invite'));
  assert.equal(await friend.getAttribute('html', 'lang'), 'fr');
  await pressJoin(friend);
  await waitText(friend, '#turn', new RegExp(`^${escapeRe(fr('game.theirTurn'))}$`));

  // The creator's page has turned into the board; there they switch to
  // French and keep White's seat.
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await waitText(page, '#turn', new RegExp(`^${escapeRe(mg('game.yourTurn'))}$`));
  const game = new URL(page.url()).pathname;
  await Promise.all([page.waitForURL(/lang=fr/), page.click('.langs a[hreflang=fr]')]);
  assert.equal(new URL(page.url()).pathname, game);
  await waitText(page, '#turn', new RegExp(`^${escapeRe(fr('game.yourTurn'))}$`));
  await page.waitForSelector('.pt.movable');
  // ... and plays in it.
  await tapPoint(page, 'e2');
  await tapPoint(page, 'e3');
  await waitText(friend, '#turn', new RegExp(`^${escapeRe(fr('game.yourTurn'))}$`));
  // The choice is remembered: the front page now opens in French.
  await page.goto(site.server.url);
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  await context.close();
  await friendContext.close();
});
