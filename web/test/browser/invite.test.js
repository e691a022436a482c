// Invitations in Chromium at phone size: a link preview (a plain fetch
// of the invitation, as chat apps make) takes no seat; the friend joins
// by the button, even when the first answer is lost; the creator waiting
// on the board sees the invitation and nothing to play until the friend
// arrives; the front page lists this browser's games, whatever its
// storage holds; and a link that seats nobody (used, wrong, expired, its
// game deleted) says so in the page's language, at desktop and phone size.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, shot, noSidewaysScroll, waitText, waitMoves, tapPoint, createGame, plainStep, pressJoin, onServer,
  phoneContext,
} from './harness.js';
import { audit } from './axe.js';
import { CATALOGS, LANGS } from '../catalogs.js';

const site = useSite([], {
  // Invitations here expire at once.
  servers: { expiring: ['--invite-ttl', '0s'] },
});

const person = (options) => site.phone(options);

async function joined(id) {
  const res = await fetch(`${site.server.url}/api/games/${id}`);
  const { players } = await res.json();
  return { white: players.white.joined, black: players.black.joined };
}

const notation = (s) => `${s.from}-${s.to}${s.kind === 'approach' ? 'A' : s.kind === 'withdrawal' ? 'W' : ''}`;

test('a link preview takes no seat; the friend joins by the button and plays', async () => {
  const created = await createGame(site.server.url, { first: 'me' });
  const id = created.game_id;
  for (const agent of ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'WhatsApp/2.23.20.0']) {
    for (const method of ['HEAD', 'GET']) {
      const res = await fetch(created.invite_link, { method, redirect: 'manual', headers: { 'user-agent': agent } });
      assert.equal(res.status, 200, `${method} ${agent}`);
      assert.equal(res.headers.get('set-cookie'), null, `${method} ${agent} got a seat cookie`);
      await res.arrayBuffer();
    }
  }
  assert.deepEqual(await joined(id), { white: true, black: false }, 'the preview took nothing');

  // The creator opens the board from the seat link, on a device without
  // the invitation: the board says it waits, and where the link is.
  const white = await person();
  await white.page.goto(created.seat_link);
  await waitText(white.page, '#waiting-friend', /^Waiting for your friend to join$/);
  await white.page.waitForSelector('#invite-elsewhere', { state: 'visible', timeout: 10_000 });
  assert.equal(await white.page.isVisible('#invite-share'), false);

  const friend = await person();
  await friend.page.goto(created.invite_link);
  assert.match(await friend.page.textContent('h1'), /Your friend invites you to a game of Fanorona/);
  assert.match(await friend.page.textContent('main'), /You play Black\. White moves first/);
  assert.match(await friend.page.textContent('.rules-line'), /capture is compulsory/);
  assert.equal(await friend.page.getAttribute('#watch', 'href'), `/g/${id}`);
  assert.deepEqual(await joined(id), { white: true, black: false }, 'opening the page took nothing');
  await noSidewaysScroll(friend.page);
  await shot(friend.page, 'invitation-360', { fullPage: true });
  await pressJoin(friend.page);
  assert.equal(friend.page.url(), `${site.server.url}/g/${id}`, 'the token left the address');
  await waitText(friend.page, '#player-bottom .who', /Black · you/);
  await waitText(friend.page, '#turn', /^Your friend’s turn$/);
  assert.deepEqual(await joined(id), { white: true, black: true });

  await waitText(white.page, '#turn', /^Your turn$/);
  assert.equal(await white.page.isHidden('#invite'), true, 'the invitation goes once the friend is here');
  const step = await plainStep(site.server.url, id);
  await tapPoint(white.page, step.from);
  await tapPoint(white.page, step.to);
  if (step.kind !== 'paika') {
    await white.page.waitForFunction(() => !document.getElementById('end-turn').hidden
      || document.getElementById('turn').textContent !== 'Your turn');
    if (await white.page.isVisible('#end-turn')) await white.page.click('#end-turn');
  }
  await waitMoves(friend.page, [notation(step)]);
  assert.deepEqual([...white.errors, ...friend.errors], []);
  assert.deepEqual([...white.outside, ...friend.outside], []);
  await white.context.close();
  await friend.context.close();
});

test('a join whose answer is lost is pressed again and keeps the same seat', async () => {
  const created = await createGame(site.server.url, { first: 'friend' });
  const id = created.game_id;
  const friend = await person();
  // The first answer never reaches the page: the server has seated the
  // friend, the page sees a network failure.
  let lost = 0;
  await friend.page.route(`**/api/games/${id}/join`, async (route) => {
    if (lost > 0) return route.continue();
    lost++;
    await route.fetch();
    return route.abort('connectionreset');
  });
  await friend.page.goto(created.invite_link);
  await friend.page.click('#join');
  await waitText(friend.page, '#join-error', /Joining did not work/);
  assert.deepEqual(await joined(id), { white: true, black: true }, 'the lost join took the seat');
  await pressJoin(friend.page);
  await waitText(friend.page, '#player-bottom .who', /White · you/);
  await waitText(friend.page, '#turn', /^Your turn$/);

  // The page kept its key for the game. Without the cookie (as after an
  // answer lost on the very first join), the same key sent twice from
  // the page names the same seat.
  const key = await friend.page.evaluate((gameId) => sessionStorage.getItem(`fanorona.join.${gameId}`), id);
  assert.match(key, /^[A-Za-z0-9_-]{22}$/);
  const secret = new URL(await friend.page.inputValue('#seat-link')).searchParams.get('seat');
  await friend.context.clearCookies();
  const token = new URL(created.invite_link).searchParams.get('invite');
  const seats = await friend.page.evaluate(async ([gameId, invite, k]) => {
    const join = async () => {
      const res = await fetch(`/api/games/${gameId}/join`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite, key: k }),
      });
      return res.json();
    };
    return [await join(), await join()];
  }, [id, token, key]);
  for (const answer of seats) {
    assert.equal(answer.role, 'white', JSON.stringify(answer));
    assert.equal(answer.seat, secret, 'the seat the page holds');
  }
  // Another browser's key only watches.
  const other = await fetch(`${site.server.url}/api/games/${id}/join`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite: token, key: 'x'.repeat(22) }),
  });
  assert.equal((await other.json()).role, 'spectator');
  assert.deepEqual(friend.errors.filter((e) => !/ERR_CONNECTION_RESET|Failed to load resource/.test(e)), []);
  await friend.context.close();
});

test('the creator waiting on the board sees the invitation and cannot play until the friend joins', async () => {
  const creator = await person();
  const { page } = creator;
  // The system clipboard is shared with whatever else runs: record what
  // the page copies instead.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (text) => { window.copiedText = text; } },
    });
  });
  await page.goto(site.server.url);
  await page.check('input[name=first][value=me]');
  await page.click('#start');
  await page.waitForSelector('#invite:not([hidden])');
  const invite = await page.inputValue('#invite-link');
  const id = new URL(invite).pathname.split('/').pop();
  await page.click('#to-board');
  await page.waitForURL(`${site.server.url}/g/${id}`);

  await waitText(page, '#waiting-friend', /^Waiting for your friend to join$/);
  assert.equal(await page.getAttribute('#waiting-friend', 'role'), 'status');
  // The link comes with the game's first state, a moment after the page.
  await page.waitForFunction(() => document.getElementById('invite-link').value !== '', null, { timeout: 10_000 });
  assert.equal(await page.inputValue('#invite-link'), invite, 'the board shows the invitation link');
  await page.waitForSelector('#qr path');
  assert.equal(await page.locator('#qr path').count(), 1, 'and its QR code');
  assert.equal(await page.isVisible('#copy'), true);
  await page.click('#copy');
  await waitText(page, '#copy', /^Copied$/);
  assert.equal(await page.evaluate(() => window.copiedText), invite);
  await page.waitForSelector('svg.board [data-sq="e2"]');
  assert.doesNotMatch(await page.textContent('.status-box'), /Your turn/);
  assert.equal(await page.isVisible('#turn'), false);
  assert.equal(await page.locator('.pt.movable').count(), 0, 'no stone is marked');
  await tapPoint(page, 'e2');
  assert.equal(await page.locator('.pt.selected, .pt.target, .pt.preview').count(), 0, 'nothing to select or preview');
  assert.equal(await page.isVisible('#resign'), false);
  await noSidewaysScroll(page);
  await shot(page, 'board-waiting-360', { fullPage: true });

  const friend = await person();
  await friend.page.goto(invite);
  await pressJoin(friend.page);
  await waitText(page, '#turn', /^Your turn$/);
  assert.equal(await page.isHidden('#invite'), true, 'the panel switches to play');
  await page.waitForSelector('.pt.movable');
  assert.deepEqual(creator.errors, []);
  await friend.context.close();

  // The front page lists both of this browser's games, newest first: a
  // new one still waiting, and the one being played.
  await page.goto(site.server.url);
  await page.click('#start');
  await page.waitForSelector('#invite:not([hidden])');
  const second = new URL(await page.inputValue('#invite-link')).pathname.split('/').pop();
  await page.goto(site.server.url);
  await page.waitForSelector('#my-games:not([hidden])');
  const items = await page.$$eval('#games-list li', (lis) => lis.map((li) => ({
    href: li.querySelector('a').getAttribute('href'), text: li.textContent,
  })));
  assert.equal(items.length, 2, JSON.stringify(items));
  assert.equal(items[0].href, `/g/${second}`);
  assert.match(items[0].text, /Waiting for your friend/);
  assert.equal(items[1].href, `/g/${id}`);
  assert.match(items[1].text, /Playing/);
  await noSidewaysScroll(page);
  await shot(page, 'home-games-360', { fullPage: true });
  // The waiting one leads to its board, where the invitation is shown.
  await page.click(`#games-list a[href="/g/${second}"]`);
  await waitText(page, '#waiting-friend', /^Waiting for your friend to join$/);
  // That text is in the page from the start: the link comes with the
  // game's first state.
  await page.waitForFunction((id) => document.getElementById('invite-link').value.includes(`/g/${id}?invite=`),
    second, { timeout: 10_000 });
  assert.match(await page.inputValue('#invite-link'), new RegExp(`/g/${second}\\?invite=`));
  // An entry can be removed.
  await page.goto(site.server.url);
  await page.click(`#games-list button.remove[data-game="${second}"]`);
  assert.deepEqual(await page.$$eval('#games-list a', (as) => as.map((a) => a.getAttribute('href'))), [`/g/${id}`]);
  await page.reload();
  assert.equal(await page.locator('#games-list li').count(), 1, 'the removal is kept');
  assert.deepEqual(creator.errors, []);
  await creator.context.close();
});

test('the front page and the board survive garbage in localStorage', async () => {
  const created = await createGame(site.server.url, { first: 'me' });
  const good = { id: created.game_id, color: 'white', joined: false, lastActive: Date.now(), invite: created.invite_link };
  const garbage = [
    '{', 'null', '42', '"text"', '{"a":1}', '[1,2,3]', '[null,{}]',
    JSON.stringify([{ id: '<img src=x onerror=alert(1)>', color: 'white', joined: true, lastActive: 1 }]),
    JSON.stringify([{ ...good, lastActive: 1e300 }, { ...good, color: 'green' }]),
  ];
  const { context, page, errors } = await person();
  await page.goto(site.server.url);
  for (const value of garbage) {
    await page.evaluate((v) => localStorage.setItem('fanorona.games', v), value);
    await page.reload();
    await page.waitForSelector('#start');
    assert.equal(await page.isHidden('#my-games'), true, value);
  }
  await page.evaluate((v) => localStorage.setItem('fanorona.games', v), JSON.stringify([7, good, 'x']));
  await page.reload();
  await page.waitForSelector('#my-games:not([hidden])');
  assert.equal(await page.locator('#games-list li').count(), 1);
  // The board of a game with garbage beside it still shows its invitation.
  await page.goto(created.seat_link);
  await waitText(page, '#waiting-friend', /^Waiting for your friend to join$/);
  // The link itself comes with the game's first state, a moment later.
  await page.waitForFunction(() => document.getElementById('invite-link').value !== '', null, { timeout: 10_000 });
  assert.equal(await page.inputValue('#invite-link'), `${created.invite_link}&lang=en`);
  await page.evaluate(() => localStorage.setItem('fanorona.games', '}{'));
  await page.reload();
  await waitText(page, '#waiting-friend', /^Waiting for your friend to join$/);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Takes the invited seat of `created` from outside the browser. */
async function joinFromOutside(created) {
  const invite = new URL(created.invite_link).searchParams.get('invite');
  const res = await fetch(`${site.server.url}/api/games/${created.game_id}/join`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite }),
  });
  assert.notEqual((await res.json()).role, 'spectator');
}

const SIZES = {
  desktop: (browser) => browser.newContext({ viewport: { width: 1280, height: 800 } }),
  phone: (browser) => phoneContext(browser, { viewport: { width: 390, height: 844 }, isMobile: true }),
};

for (const [size, newContext] of Object.entries(SIZES)) {
  test(`a used, wrong or expired invitation says so and what to do next, in every language (${size})`, async () => {
    const context = await newContext(site.browser);
    const { page, errors } = await site.watch(context);
    for (const lang of LANGS) {
      const text = (key) => CATALOGS[lang][key];
      /** Opens `link`; checks the status, the page's words, its button, axe. */
      const explained = async (link, status, kind, href, action) => {
        const res = await page.goto(`${link}&lang=${lang}`);
        assert.equal(res.status(), status, `${kind} ${lang}`);
        await checkPage(kind, href, action);
      };
      const checkPage = async (kind, href, action) => {
        assert.equal(await page.getAttribute('html', 'lang'), lang);
        assert.equal(await page.title(), text(`${kind}.doctitle`));
        assert.equal((await page.textContent('h1')).trim(), text(`${kind}.h`), `${kind} ${lang}`);
        assert.equal((await page.textContent('main p')).trim(), text(`${kind}.p`));
        const button = page.locator('main a.button');
        assert.equal((await button.textContent()).trim(), text(action));
        assert.equal(await button.getAttribute('href'), href);
        assert.equal(await button.isVisible(), true);
        assert.equal(await page.locator('#join').count(), 0, 'no Join button');
        await noSidewaysScroll(page);
        await audit(page, `${kind} invitation, ${lang}, ${size}`);
      };

      // Both seats taken.
      const used = await createGame(site.server.url, { first: 'me' });
      await joinFromOutside(used);
      await explained(site.local(used.invite_link), 200, 'used', `/g/${used.game_id}`, 'invite.watchGame');
      if (lang === 'en') await shot(page, `invitation-used-${size}`, { fullPage: true });
      await Promise.all([page.waitForURL(`${site.server.url}/g/${used.game_id}`), page.click('main a.button')]);
      await waitText(page, 'h1:not([hidden] *)', new RegExp(`^${text('game.heading.watching')}$`));

      // A token that is not this game's.
      const wrong = `${site.server.url}/g/${used.game_id}?invite=${'x'.repeat(22)}`;
      await explained(wrong, 403, 'wrong', `/g/${used.game_id}`, 'invite.watchGame');

      // Expired, then deleted by the sweep (as a mistyped game id is).
      const stale = await createGame(site.expiring.url, { first: 'me' });
      await explained(onServer(site.expiring.url, stale.invite_link), 410, 'expired', '/', 'game.newGame');
      await explained(`${site.server.url}/g/NoSuchGame?invite=${'x'.repeat(22)}`, 404, 'gone', '/', 'game.newGame');

      // The seat is taken by someone else while the invitation is open:
      // pressing Join tells the friend, rather than seating them to watch.
      const raced = await createGame(site.server.url, { first: 'friend' });
      await page.goto(`${site.local(raced.invite_link)}&lang=${lang}`);
      await page.waitForSelector('#join');
      await joinFromOutside(raced);
      await page.click('#join');
      await page.waitForSelector('h1[data-i18n="used.h"]');
      await checkPage('used', `/g/${raced.game_id}`, 'invite.watchGame');
      assert.match(page.url(), /\?invite=/, 'the page of this invitation link');
    }
    const expected = /Failed to load resource: the server responded with a status of 4(03|04|10)/;
    assert.deepEqual(errors.filter((e) => !expected.test(e)), []);
    await context.close();
  });
}
