// Every page of the site, in every state a player meets, audited with
// axe-core in the light and the dark theme, at a desktop's size and a
// phone's: no violation of any impact is allowed. One browser; one
// context per theme and size, which visits every page and state in turn.
//
// The states: the front page (against a friend, then against the
// computer), the creator's invitation there, the friend's invitation
// page, the board while the creator waits, the game at its start, while
// choosing approach or withdrawal, in the middle of a capture chain (End
// turn shown), finished by resignation, a game against the computer, a
// spectator's view, the two rules pages (and the boards to try a rule on,
// played: a line to choose, a refusal explained, a verdict), the
// analysis board with its engine's lines, a stone selected on it and
// its stones being edited, a game's review, the puzzles page, and the
// error pages (an unknown
// game, an expired invitation, a game gone while its page was open). The game page says in its one <h1> what
// the game is to the person looking at it.
//
// Then what axe cannot judge: the names a screen reader says for the
// front page's choices, the board pictures and the stone counts, and the
// contrast of the board's small coordinates and its marks, in both
// themes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, waitText, tapPoint, createGame, pressJoin, contrastRatio, CHAIN,
} from './harness.js';
import { audit, accessible, spokenText } from './axe.js';

const SIZES = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

const site = useSite(['--allow-custom-start', '--computer-step-delay', '0ms', '--computer-min-think', '0ms'], {
  // Invitations here expire at once: its game links lead to the page that
  // explains an expired invitation.
  servers: { expiring: ['--invite-ttl', '0s'] },
});
let audits = 0;

const { local } = site;

/**
 * Checks that the page has one heading of level 1 and that it reads
 * `text`; on a wide screen it is also shown (on a phone the board takes
 * the width, and the heading is for screen readers only).
 */
async function heading(page, text, size) {
  await waitText(page, 'h1:not([hidden] *)', text);
  assert.equal(await page.locator('h1:not([hidden] *)').count(), 1, 'one h1');
  if (size === 'desktop') {
    const box = await page.locator('h1:not([hidden] *)').boundingBox();
    assert.ok(box && box.width > 100 && box.height > 10, `the heading is shown: ${JSON.stringify(box)}`);
  }
}

/** Takes the invited seat of a game from outside the browser. */
async function joinFromOutside(created) {
  const invite = new URL(created.invite_link).searchParams.get('invite');
  const res = await fetch(`${site.server.url}/api/games/${created.game_id}/join`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite }),
  });
  const answer = await res.json();
  assert.equal(res.status, 200, JSON.stringify(answer));
  return answer;
}

/** Plays an intent for the holder of `seat`, from outside the browser. */
async function play(gameId, seat, intent) {
  const res = await fetch(`${site.server.url}/api/games/${gameId}/intents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${seat}` },
    body: JSON.stringify(intent),
  });
  assert.equal(res.status, 200, await res.text());
}

for (const [size, options] of Object.entries(SIZES)) {
  for (const colorScheme of ['light', 'dark']) {
    test(`every page and state has no accessibility violation (${size}, ${colorScheme})`, async (t) => {
      const context = await site.browser.newContext({ ...options, colorScheme });
      const { page, errors, outside } = await site.watch(context);
      const check = (what) => t.test(what, async () => {
        audits += 1;
        await audit(page, `${what} (${size}, ${colorScheme})`);
      });

      await page.goto(site.server.url);
      await page.waitForSelector('.picture svg.board');
      await check('front page');
      await page.check('input[name=opponent][value=computer]');
      await page.waitForSelector('#computer-form:not([hidden])');
      await check('front page, against the computer');
      await page.check('input[name=opponent][value=friend]');
      await page.click('#start');
      await page.waitForSelector('#invite:not([hidden]) #qr path');
      await check('front page, the creator waiting with the invitation');

      await page.click('#to-board');
      await waitText(page, '#waiting-friend', /^Waiting for your friend to join$/);
      await page.waitForSelector('#qr path');
      await check('game page, the creator waiting on the board');
      const id = new URL(page.url()).pathname.split('/').pop();
      const invite = new URL(await page.inputValue('#invite-link')).searchParams.get('invite');
      await joinFromOutside({ game_id: id, invite_link: `${site.server.url}/g/${id}?invite=${invite}` });
      await waitText(page, '#turn', /^Your turn$/);
      await page.waitForSelector('.pt.movable');
      await heading(page, /^Playing a friend$/, size);
      await check('game page at the start');
      await tapPoint(page, 'd3');
      await tapPoint(page, 'e3');
      await page.waitForSelector('.pt.choice');
      await check('game page, choosing approach or withdrawal');

      const friendGame = await createGame(site.server.url, { first: 'me' });
      await page.goto(local(friendGame.invite_link));
      await page.waitForSelector('#join');
      await check('invitation page, the friend invited');
      await pressJoin(page);
      await waitText(page, '#turn', /^Your friend’s turn$/);
      await check('game page at the start, the friend waiting for the first move');

      const chain = await createGame(site.server.url, { first: 'me', position: CHAIN });
      await joinFromOutside(chain);
      await page.goto(local(chain.seat_link));
      await waitText(page, '#turn', /^Your turn$/);
      await tapPoint(page, 'e2');
      await tapPoint(page, 'e3');
      await page.waitForSelector('#end-turn:not([hidden])');
      await page.waitForSelector('.pt.is-target');
      await check('game page in a capture chain, End turn shown');
      await page.click('#end-turn');
      await waitText(page, '#turn', /^Your friend’s turn$/);
      await page.click('#resign');
      await page.click('#resign-yes');
      await waitText(page, '#result .result-title', /^Your friend wins$/);
      await check('game page, finished by resignation');

      const watched = await createGame(site.server.url, { first: 'me' });
      await joinFromOutside(watched);
      await play(watched.game_id, watched.seat, { type: 'step', from: 'e2', to: 'e3', kind: 'approach' });
      await page.goto(local(watched.spectator_link));
      await waitText(page, '#turn', /^Black to move$/);
      await page.waitForSelector('#moves button.move');
      await heading(page, /^Watching a game$/, size);
      await check('game page, a spectator watching');

      const computer = await createGame(site.server.url, { opponent: 'computer', level: 1, first: 'me' });
      await page.goto(local(computer.seat_link));
      await waitText(page, '#turn', /^Your turn$/);
      await page.waitForSelector('#computer-actions:not([hidden])');
      await heading(page, /^Playing the computer$/, size);
      await check('game page against the computer');

      await page.goto(`${site.server.url}/rules`);
      await page.waitForSelector('.diagram svg.board');
      await page.waitForFunction(() => [...document.querySelectorAll('.try-says')].every((p) => p.textContent));
      await check('rules page');
      // Its boards played: a line to choose, a chain with a refused step
      // explained and End turn shown, and a wrong turn judged.
      const tryTap = async (id, sq) => {
        await page.click(`#try-${id} [data-sq="${sq}"] .hit`);
        await page.waitForFunction((sel) => !document.querySelector(sel).hasAttribute('aria-busy'), `#try-${id}`);
      };
      for (const sq of ['d3', 'e3']) await tryTap('both', sq);
      for (const sq of ['d3', 'e3', 'f3']) await tryTap('chain', sq);
      for (const sq of ['b1', 'c1']) await tryTap('approach', sq);
      await page.waitForSelector('#try-both .try-choices:not([hidden])');
      await page.waitForSelector('#try-chain .try-end:not([hidden])');
      await waitText(page, '#try-approach .try-says', /^Not quite/);
      await check('rules page, its boards played');
      await page.goto(`${site.server.url}/which-rules`);
      await page.waitForSelector('h1');
      await check('which rules page');
      // The analysis board, its search done (a few thousand nodes).
      await page.goto(`${site.server.url}/analysis?nodes=5000`);
      await page.waitForSelector('#analysis-best[data-done="true"]');
      await heading(page, /^Analysis board$/, size);
      await check('analysis board');
      // A turn played on it (a stone selected, its targets marked), then
      // the stones being edited.
      await page.click('#analysis-board [data-sq="d2"] .hit');
      await page.waitForSelector('#analysis-board .selected');
      await check('analysis board, a stone selected');
      await page.click('#analysis-edit');
      await page.waitForSelector('#analysis-editor:not([hidden])');
      await check('analysis board, its stones edited');
      // A game reviewed, a marked turn shown.
      const game = new URLSearchParams({
        start: 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0',
        turns: 'd2-e3A c3-d2A b2-c3A a3-b2A a2-a3A b2-a2W', nodes: '3000', at: '2',
      });
      await page.goto(`${site.server.url}/review?${game}`);
      await page.waitForSelector('#review-status[data-state="done"]');
      await heading(page, /^Game review$/, size);
      await check('review page');
      // A puzzle, then the next one, skipped to.
      await page.goto(`${site.server.url}/puzzles`);
      await page.waitForSelector('#puzzle[data-puzzle]:not([aria-busy])');
      await heading(page, /^Puzzles$/, size);
      await check('puzzles page');
      await page.click('#puzzle-skip');
      await page.waitForSelector('#puzzle[data-puzzle]:not([aria-busy])');
      await check('puzzles page, another puzzle');

      // A game page whose game is gone by the time its socket opens (the
      // page of another game, served at an unknown game's address).
      await page.route(`${site.server.url}/g/GoneGame00`, async (route) => {
        await route.fulfill({ response: await route.fetch({ url: `${site.server.url}/g/${watched.game_id}` }) });
      });
      await page.goto(`${site.server.url}/g/GoneGame00`);
      await page.waitForSelector('#not-found:not([hidden])');
      await check('game page, the game gone');

      const missing = await page.goto(`${site.server.url}/g/NoSuchGame`);
      assert.equal(missing.status(), 404);
      await check('unknown game link (404)');
      const stale = await createGame(site.expiring.url, { first: 'me' });
      const gone = await page.goto(stale.invite_link);
      assert.equal(gone.status(), 410);
      await check('expired invitation');

      const expected = /Failed to load resource: the server responded with a status of 4(04|10)|WebSocket connection to '[^']*\/GoneGame00\//;
      assert.deepEqual(errors.filter((e) => !expected.test(e)), []);
      assert.deepEqual(outside.filter((u) => !u.startsWith(site.expiring.url)), []);
      await context.close();
    });
  }
}

test('every audit ran', () => {
  assert.equal(audits, 4 * 24, 'two sizes, two themes, twenty-four pages and states');
});

test('a screen reader says the front page\'s choices by their names alone', async () => {
  const context = await site.browser.newContext(SIZES.phone);
  const page = await context.newPage();
  await page.goto(site.server.url);
  await page.waitForSelector('#start');
  const names = (group) => page.$$eval(`input[name=${group}]`, (inputs) => inputs.map((i) => i.value))
    .then((values) => Promise.all(values.map((v) => accessible(page, `input[name=${group}][value="${v}"]`))))
    .then((found) => found.map((a) => a.name));
  // The chosen one is marked with a tick, which is no part of its name.
  assert.deepEqual(await names('first'), ['Me', 'My friend', 'Random']);
  await page.check('input[name=first][value=friend]');
  assert.deepEqual(await names('first'), ['Me', 'My friend', 'Random']);
  await page.check('input[name=opponent][value=computer]');
  await page.waitForSelector('#computer-form:not([hidden])');
  await page.check('input[name=level][value="3"]');
  const levels = await names('level');
  assert.equal(levels.length, 6);
  levels.forEach((name, i) => assert.match(name, new RegExp(`^${i + 1} [A-Z][a-z]+ [a-z]`), `level ${i + 1}: ${name}`));
  assert.deepEqual(await names('computer-first'), ['Me', 'The computer', 'Random']);
  await context.close();
});

test('a board picture is named by its tag and described by its caption, the front page\'s by its label', async () => {
  const context = await site.browser.newContext(SIZES.desktop);
  const page = await context.newPage();
  await page.goto(`${site.server.url}/rules`);
  await page.waitForSelector('.diagram svg.board');
  const caption = (n) => page.textContent(`figure:nth-of-type(${n}) figcaption`);
  assert.deepEqual(await accessible(page, 'figure:nth-of-type(1) .pair > div:nth-child(2) svg'),
    { name: 'The start', description: await caption(1) });
  assert.deepEqual(await accessible(page, 'figure:nth-of-type(2) .pair > div:nth-child(1) svg'),
    { name: 'Before', description: await caption(2) });
  assert.match(await caption(2), /White steps from d3 to e3/);
  assert.deepEqual(await accessible(page, 'figure:nth-of-type(2) .pair > div:nth-child(2) svg'),
    { name: 'After', description: await caption(2) });
  await page.goto(site.server.url);
  await page.waitForSelector('.picture svg.board');
  assert.match((await accessible(page, '.picture svg.board')).name, /^The board at the start/);
  assert.equal(await page.getAttribute('.picture', 'role'), null, 'the wrapper is no image of its own');
  await context.close();
});

test('the stone counts are said and shown as a number of stones', async () => {
  const created = await createGame(site.server.url, { first: 'me', position: CHAIN });
  await joinFromOutside(created);
  const context = await site.browser.newContext(SIZES.phone);
  const page = await context.newPage();
  await page.goto(local(created.seat_link));
  await waitText(page, '#turn', /^Your turn$/);
  assert.equal(await page.textContent('#player-bottom .count'), '1 stone');
  assert.equal(await spokenText(page, '#player-bottom .count'), '1 stone');
  assert.equal(await spokenText(page, '#player-top .count'), '3 stones');
  await tapPoint(page, 'e2');
  await tapPoint(page, 'e3');
  await waitText(page, '#player-top .count', /^1 stone$/);
  assert.equal(await spokenText(page, '#player-top .count'), '1 stone');
  await context.close();
});

test('the board\'s coordinates and marks stand out from it in both themes', async () => {
  const context = await site.browser.newContext(SIZES.desktop);
  const page = await context.newPage();
  await page.goto(`${site.server.url}/rules`);
  await page.waitForSelector('.diagram svg.board');
  // A colour of the theme as the browser resolves it.
  const colour = (name) => page.evaluate((n) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${n})`;
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  }, name);
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    const ratio = async (fg, bg) => contrastRatio(await colour(fg), await colour(bg));
    // Small text: the coordinates on the board.
    const r = await ratio('--coord', '--board');
    assert.ok(r >= 4.5, `${colorScheme}: --coord on --board is ${r.toFixed(2)}:1`);
    // Marks a player must see: lines, movable and target marks, captures,
    // the last turn's arrows, the second line of a choice, hints and the
    // keyboard focus.
    for (const fg of ['--line', '--accent', '--capture', '--trail', '--choice-b', '--hint', '--focus']) {
      const r = await ratio(fg, '--board');
      assert.ok(r >= 3, `${colorScheme}: ${fg} on the board is ${r.toFixed(2)}:1`);
    }
  }
  await context.close();
});
