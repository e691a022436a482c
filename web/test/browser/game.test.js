// A whole game between two phones, against the real server, with a third
// phone watching. The tests run in order and share the game: the creator
// starts it, a friend joins through the invitation, and they play by
// tapping the board through
//   1. d3-e3W       White must capture; d3-e3 can take either line and
//                   White taps c3 to take the withdrawal line
//   2. c4-c3A       Black could capture on, and stops with End turn
//   3. b2-c1W-c2A   a chain that ends by itself when nothing is left to take
//   4. a4-a3A       Black plays with the keyboard alone
// then a reload, a server restart, resignation and a rematch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, shot, noSidewaysScroll, waitText, waitMoves, moveList, tapPoint, boardRows, waitBoard,
  waitLabel, pressJoin, arrowTo,
} from './harness.js';

const AFTER = [
  'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW',
  'BBBBBBBBB/BBBBBBBBB/BW..WBWBW/WWWWWWWWW/WWWWWWWWW',
  'BBBBBBBBB/BB.BBBBBB/BWB.WBWBW/WW.WWWWWW/WW.WWWWWW',
  'BBBBBBBBB/BB.BBBBBB/.W..WBWBW/W.WWWWWWW/WW.WWWWWW',
  'BBBBBBBBB/.B.BBBBBB/BW..WBWBW/..WWWWWWW/.W.WWWWWW',
];

const site = useSite();
const people = {};
let gameUrl;

async function person(name) {
  people[name] = await site.phone();
  return people[name];
}

async function everyone(fn) {
  await Promise.all(Object.values(people).map((p) => fn(p.page, p)));
}

test('the creator picks who moves first; the friend opens the invitation and the creator\'s page turns into the game', async () => {
  const creator = await person('white');
  await creator.page.goto(site.server.url);
  await creator.page.check('input[name=first][value=me]');
  await creator.page.click('#start');
  await creator.page.waitForSelector('#invite:not([hidden])');
  const invite = await creator.page.inputValue('#invite-link');
  // The link opens the invitation in the creator's language.
  assert.match(invite, /^http:\/\/127\.0\.0\.1:\d+\/g\/[A-Za-z0-9]{10}\?invite=[A-Za-z0-9]{22}&lang=en$/);
  assert.match(await creator.page.textContent('.rules-line'), /capture is compulsory/);
  await creator.page.waitForSelector('#qr path');
  assert.equal(await creator.page.locator('#qr path').count(), 1);
  await noSidewaysScroll(creator.page);
  await shot(creator.page, '01-invite', { fullPage: true });

  gameUrl = invite.replace(/\?.*$/, '');
  const friend = await person('black');
  const arrived = creator.page.waitForURL(gameUrl);
  await friend.page.goto(invite);
  assert.equal(friend.page.url(), invite, 'opening the invitation takes nothing and stays on it');
  assert.match(await friend.page.textContent('h1'), /invites you/);
  await noSidewaysScroll(friend.page);
  await shot(friend.page, '01b-invitation', { fullPage: true });
  await pressJoin(friend.page);
  assert.equal(friend.page.url(), gameUrl, 'joining leads to the plain game link');
  await arrived;
  await waitText(creator.page, '#turn', /^Your turn$/);
  await waitText(friend.page, '#turn', /^Your friend’s turn$/);
  assert.match(await creator.page.textContent('#player-bottom .who'), /White · you/);
  assert.match(await friend.page.textContent('#player-bottom .who'), /Black · you/);
  await waitText(friend.page, '#player-top .presence', /online/);
  assert.match(await creator.page.inputValue('#seat-link'), /\?seat=[A-Za-z0-9]{22}$/, 'the owner sees their own seat link');

  const watcher = await person('spectator');
  await watcher.page.goto(gameUrl);
  await waitText(watcher.page, '#turn', /^White to move$/);
  assert.equal(await watcher.page.isHidden('#seat'), true, 'a spectator has no seat link');
  await waitBoard(watcher.page, AFTER[0]);
});

test('White must capture and chooses the line by tapping it', async () => {
  const { page } = people.white;
  await waitText(page, '#hint', /You must capture/);
  const movable = await page.$$eval('.pt.movable', (gs) => gs.map((g) => g.dataset.sq).sort());
  assert.deepEqual(movable, ['d2', 'd3', 'e2', 'f2'], 'only the capturing stones are marked');
  await tapPoint(page, 'a1');
  await waitText(page, '#hint', /You must capture/);
  await tapPoint(page, 'd3');
  await waitLabel(page, 'e3', /^e3, empty, move here, choose a line$/);
  await tapPoint(page, 'e3');
  await page.waitForSelector('.pt.choice');
  const lines = await page.$$eval('.pt.choice', (gs) => gs.map((g) => g.dataset.sq).sort());
  assert.deepEqual(lines, ['c3', 'f3'], 'both lines light up');
  await waitText(page, '#hint', /Tap a stone of the line/);
  await shot(page, '02-choose-line');
  await tapPoint(page, 'c3');
  await everyone((p) => waitMoves(p, ['d3-e3W']));
  await everyone((p) => waitBoard(p, AFTER[1]));
  await waitText(people.black.page, '#turn', /^Your turn$/);
});

test('Black captures, could go on, and stops with End turn', async () => {
  const { page } = people.black;
  await tapPoint(page, 'c4');
  await tapPoint(page, 'c3');
  await page.waitForSelector('#end-turn:not([hidden])');
  await waitText(page, '#hint', /Capture again with the same stone, or end your turn/);
  await waitLabel(page, 'c3', /black stone, selected/);
  assert.ok(await page.locator('.pt.is-target').count() > 0, 'the next captures are marked');
  await waitText(people.spectator.page, '#turn', /^Black to move$/);
  await shot(page, '03-chain-end-turn');
  await page.click('#end-turn');
  await everyone((p) => waitMoves(p, ['d3-e3W', 'c4-c3A']));
  await everyone((p) => waitBoard(p, AFTER[2]));
  assert.equal(await page.isHidden('#end-turn'), true);
});

test('White\'s capture chain ends by itself when nothing more can be taken', async () => {
  const { page } = people.white;
  await waitText(page, '#turn', /^Your turn$/);
  const movable = await page.$$eval('.pt.movable', (gs) => gs.map((g) => g.dataset.sq).sort());
  assert.deepEqual(movable, ['b2', 'd2', 'e3']);
  await tapPoint(page, 'b2');
  await tapPoint(page, 'c1');
  await waitText(page, '#hint', /Capture again/);
  await tapPoint(page, 'c2');
  await everyone((p) => waitMoves(p, ['d3-e3W', 'c4-c3A', 'b2-c1W-c2A']));
  await waitText(page, '#turn', /^Your friend’s turn$/);
  assert.equal(await page.isHidden('#end-turn'), true, 'no End turn, no confirmation');
  await everyone((p) => waitBoard(p, AFTER[3]));
  await shot(page, '04-after-chain');
  await shot(people.spectator.page, '04-spectator', { fullPage: true });
});

test('a reload restores the same state', async () => {
  const { page } = people.black;
  const before = { rows: await boardRows(page), moves: await moveList(page), turn: await page.textContent('#turn') };
  await page.reload();
  await waitMoves(page, before.moves);
  await waitText(page, '#turn', /^Your turn$/);
  await waitBoard(page, before.rows);
  assert.equal(await page.textContent('#turn'), before.turn);
  assert.match(await page.textContent('#player-bottom .who'), /Black · you/, 'the seat comes back from the cookie');
});

test('the keyboard alone can make a move', async () => {
  const { page } = people.black;
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate(() => Boolean(document.activeElement?.closest('[data-sq]')))) break;
    await page.keyboard.press('Tab');
  }
  assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-sq]'))), 'Tab reaches the board');
  await arrowTo(page, 'a4');
  await page.keyboard.press('Enter');
  await waitLabel(page, 'a4', /selected/);
  await arrowTo(page, 'a3');
  await waitLabel(page, 'a3', /move here, takes 2/);
  await shot(page, '05-keyboard');
  await page.keyboard.press('Enter');
  await everyone((p) => waitMoves(p, ['d3-e3W', 'c4-c3A', 'b2-c1W-c2A', 'a4-a3A']));
  await everyone((p) => waitBoard(p, AFTER[4]));
  await waitText(people.white.page, '#live', /Black played a4-a3A\. 2 stones taken\. Your turn\./);
});

test('the move list can be browsed from the start while the game goes on', async () => {
  const { page } = people.spectator;
  await page.click('#hist-first');
  await waitBoard(page, AFTER[0]);
  await waitText(page, '#viewing', /Turn 0 of 4/);
  for (let n = 1; n <= 3; n++) {
    await page.click('#hist-next');
    await waitBoard(page, AFTER[n]);
  }
  await page.click('#moves button[data-ply="2"]');
  await waitBoard(page, AFTER[2]);
  await page.click('#back-live');
  await waitBoard(page, AFTER[4]);
  assert.equal(await page.isHidden('#viewing'), true);
});

test('a dropped connection shows reconnecting and recovers by itself', async () => {
  await site.server.stop();
  await everyone((p) => waitText(p, '#turn', /Reconnecting…/));
  await people.white.page.waitForFunction(() => document.querySelectorAll('.pt.movable').length === 0);
  assert.equal(await people.white.page.textContent('#hint'), '', 'no invitation to move while offline');
  await shot(people.white.page, '06-reconnecting');
  await site.server.restart();
  await waitText(people.white.page, '#turn', /^Your turn$/, 20_000);
  await waitText(people.black.page, '#turn', /^Your friend’s turn$/, 20_000);
  await waitText(people.spectator.page, '#turn', /^White to move$/, 20_000);
  await everyone((p) => waitMoves(p, ['d3-e3W', 'c4-c3A', 'b2-c1W-c2A', 'a4-a3A']));
  await waitText(people.white.page, '#player-top .presence', /online/, 20_000);
});

test('resigning asks first, then shows the result to everyone', async () => {
  const { page } = people.white;
  await page.click('#resign');
  await page.waitForSelector('#resign-confirm:not([hidden])');
  await page.click('#resign-no');
  await page.waitForSelector('#resign:not([hidden])');
  assert.equal(await page.isHidden('#result'), true, 'No changes nothing');
  await page.click('#resign');
  await page.click('#resign-yes');
  await waitText(page, '#result .result-title', /^Your friend wins$/);
  await waitText(people.black.page, '#result .result-title', /^You win$/);
  await waitText(people.spectator.page, '#result .result-title', /^Black wins$/);
  await everyone((p) => waitText(p, '#result .result-reason', /By resignation/));
  assert.equal(await people.spectator.page.isHidden('#rematch'), true);
  await noSidewaysScroll(people.black.page);
  await shot(people.black.page, '07-result', { fullPage: true });
});

test('a rematch moves both players to a new game with the colours swapped', async () => {
  const white = people.white.page;
  const black = people.black.page;
  await black.click('#rematch');
  await waitText(black, '#rematch', /Rematch asked/);
  await waitText(white, '#result .result-rematch', /wants a rematch/);
  const moved = [white, black].map((p) => p.waitForURL((u) => u.pathname.startsWith('/g/') && u.href !== gameUrl));
  await white.click('#rematch');
  await Promise.all(moved);
  assert.equal(white.url(), black.url(), 'both in the same new game');
  await waitText(white, '#player-bottom .who', /Black · you/);
  await waitText(black, '#player-bottom .who', /White · you/);
  await waitText(black, '#turn', /^Your turn$/);
  await waitText(white, '#turn', /^Your friend’s turn$/);
  await waitMoves(white, []);
});

test('no page scrolls sideways at 360 px and nothing failed or left the site', async () => {
  await everyone(async (p, who) => {
    await noSidewaysScroll(p);
    assert.deepEqual(who.errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
    assert.deepEqual(who.outside, []);
  });
});
