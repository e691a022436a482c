// A game's record and its link after the end, against the real server.
// Two friends play a few turns by tapping the board while a third person
// watches; the record is downloaded and copied from the page, during the
// game and after White resigns, and the command-line tool replays it to
// the position the board shows. Then the finished game's link, opened
// fresh, steps through every turn, and New game leads on: to the front
// page after a game between friends, straight into a game at the same
// level against the computer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  useSite, waitText, waitMoves, moveList, createGame, plainStep, tapPoint, waitBoard, pressJoin,
  cliBinary, noSidewaysScroll, shot,
} from './harness.js';

let cli;
let dir;
let game;
const people = {};
const site = useSite([], {
  setUp: () => {
    cli = cliBinary();
    dir = mkdtempSync(join(tmpdir(), 'fanorona-records-'));
  },
  tearDown: () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

async function open(name, path) {
  // The system clipboard is shared with whatever else runs: record what
  // the page copies instead.
  people[name] = await site.open(path, {
    init: () => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: async (text) => { window.copiedText = text; } },
      });
    },
  });
  return people[name];
}

async function state(id = game.game_id) {
  const res = await fetch(`${site.server.url}/api/games/${id}`);
  assert.equal(res.status, 200);
  return res.json();
}

/** Plays one whole turn on the page of the side to move, by tapping. */
async function playTurn() {
  const now = await state();
  const { page } = people[now.side_to_move];
  const before = now.moves.length;
  await waitMoves(page, now.moves);
  const step = await plainStep(site.server.url, game.game_id);
  await tapPoint(page, step.from);
  await tapPoint(page, step.to);
  const grown = (n) => document.querySelectorAll('#moves button.move').length > n;
  // The turn ends by itself, or the server offers to end the chain.
  await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length > n
    || !document.getElementById('end-turn').hidden, before);
  if ((await moveList(page)).length === before) await page.click('#end-turn');
  await page.waitForFunction(grown, before);
}

/** Runs the command-line tool; its output lines. */
function fanorona(...args) {
  return execFileSync(cli, args, { encoding: 'utf8' }).trimEnd().split('\n');
}

/** Downloads the record through the page's link; its saved text. */
async function download(page, name) {
  await page.waitForSelector('#record-download');
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('#record-download')]);
  assert.equal(file.suggestedFilename(), `fanorona-${game.game_id}.txt`);
  const path = join(dir, name);
  await file.saveAs(path);
  return { path, text: readFileSync(path, 'utf8') };
}

test('a running game\'s record downloads from a player\'s page and replays to the board\'s position', async () => {
  game = await createGame(site.server.url, { first: 'me' });
  await open('white', new URL(game.seat_link).pathname + new URL(game.seat_link).search);
  const friend = await open('black', new URL(game.invite_link).pathname + new URL(game.invite_link).search);
  await pressJoin(friend.page);
  await open('spectator', `/g/${game.game_id}`);
  for (let n = 0; n < 4; n++) await playTurn();
  const live = await state();
  assert.equal(live.moves.length, 4);
  for (const who of Object.values(people)) {
    await who.page.waitForSelector('#record:not([hidden])');
    assert.equal(await who.page.isHidden('#new-game'), true, 'no New game while the game goes on');
    assert.equal(await who.page.isHidden('#review-link'), true, 'no review while the game goes on');
  }

  const { path, text } = await download(people.black.page, 'running.txt');
  assert.match(text, /^\[Site "http:\/\/127\.0\.0\.1:\d+\/g\/[A-Za-z0-9]{10}"\]\n/);
  assert.match(text, /\n\[Result "\*"\]\n/);
  assert.match(text, /\n\n1\. \S+\n2\. \S+\n3\. \S+\n4\. \S+\n$/);
  const printed = fanorona('play', '--record', path);
  assert.deepEqual(printed, [live.position], 'the final position and nothing more: the game goes on');
  await waitBoard(people.black.page, live.position.split(' ')[0]);
});

test('after White resigns, a spectator downloads and copies the record, and it replays to the end', async () => {
  const { page } = people.white;
  await page.click('#resign');
  await page.click('#resign-yes');
  const watcher = people.spectator.page;
  await waitText(watcher, '#result .result-title', /^Black wins$/);
  const end = await state();

  const { path, text } = await download(watcher, 'finished.txt');
  assert.match(text, /\n\[White "the player who started the game"\]\n\[Black "the invited friend"\]\n/);
  assert.match(text, /\n\[Result "0-1"\]\n\[Reason "Black wins\. By resignation\."\]\n/);
  assert.match(text, /\n\[Ended "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\]\n/);
  assert.deepEqual(fanorona('play', '--record', path), [end.position, '0-1: Black wins. By resignation.']);
  await waitBoard(watcher, end.position.split(' ')[0]);

  await watcher.click('#record-copy');
  await waitText(watcher, '#record-copy', /^Copied$/);
  assert.equal(await watcher.evaluate(() => window.copiedText), text, 'the same text as the file');
  assert.equal(await watcher.evaluate(() => document.activeElement.id), 'record-copy', 'the focus stays on the button');
  await noSidewaysScroll(watcher);
  await shot(watcher, '20-record-finished', { fullPage: true });
});

test('the finished game\'s link, opened fresh, steps through every turn by button, key and move', async () => {
  const { moves } = await state();
  // Where each turn leads, as the command-line tool plays them.
  const start = 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW';
  const rows = [start, ...[1, 2, 3, 4].map((n) => fanorona('play', 'start', ...moves.slice(0, n))[0].split(' ')[0])];
  const late = await open('late', `/g/${game.game_id}`);
  const { page } = late;
  await waitMoves(page, moves);
  await waitBoard(page, rows[4]);
  assert.equal(await page.isVisible('#new-game'), true, 'New game for whoever opens a finished game');
  assert.equal(await page.isHidden('#rematch'), true);
  assert.equal(await page.isVisible('#record'), true);

  await page.click('#hist-first');
  await waitBoard(page, rows[0]);
  await waitText(page, '#viewing', /Turn 0 of 4/);
  await page.click('#hist-next');
  await waitBoard(page, rows[1]);
  await page.keyboard.press('ArrowRight');
  await waitBoard(page, rows[2]);
  await page.keyboard.press('ArrowLeft');
  await waitBoard(page, rows[1]);
  await page.click('#moves button[data-ply="3"]');
  await waitBoard(page, rows[3]);
  assert.equal(await page.getAttribute('#moves button[data-ply="3"]', 'aria-current'), 'step');
  // The review opens at the turn shown.
  const reviewed = async () => new URL(await page.getAttribute('#review-link', 'href'), site.server.url).searchParams;
  assert.equal((await reviewed()).get('at'), '3');
  assert.equal((await reviewed()).get('turns'), moves.join(' '));
  // And the analysis board at the position shown.
  const analysed = async () => new URL(await page.getAttribute('#analyse-link', 'href'), site.server.url).searchParams.get('position');
  assert.equal((await analysed()).split(' ')[0], rows[3]);
  await page.keyboard.press('End');
  await waitBoard(page, rows[4]);
  assert.equal(await page.isHidden('#viewing'), true);
  await page.keyboard.press('Home');
  await waitBoard(page, rows[0]);
  await page.click('#back-live');
  await waitBoard(page, rows[4]);
  await noSidewaysScroll(page);
  assert.equal((await reviewed()).get('at'), String(moves.length));
  assert.equal(await analysed(), (await state()).position);
  await Promise.all([page.waitForURL(/\/analysis\?/), page.click('#analyse-link')]);
  await waitBoard(page, rows[4]);
  await page.goBack();
  await Promise.all([page.waitForURL(/\/review\?/), page.click('#review-link')]);
  assert.equal((await page.textContent('h1')).trim(), 'Game review');
  await page.waitForSelector('#review-turns button');
  assert.deepEqual(await page.$$eval('#review-turns button', (bs) => bs.map((b) => b.textContent.replace(/[?!]+$/, ''))), moves);
  assert.deepEqual(late.errors, []);
});

test('a player of a finished game sees New game beside Rematch; between friends it leads to the front page', async () => {
  const { page } = people.black;
  await page.waitForSelector('#rematch:not([hidden])');
  await page.waitForSelector('#new-game:not([hidden])');
  const order = await page.$$eval('#result .result-actions > :not([hidden])', (nodes) => nodes.map((n) => n.id));
  assert.equal(order.indexOf('new-game'), order.indexOf('rematch') + 1, `${order}`);
  await Promise.all([page.waitForURL(`${site.server.url}/`), page.click('#new-game')]);
  await page.waitForSelector('#start-form', { state: 'attached' });
});

test('against the computer, New game starts a game at the same level with the same colour', async () => {
  const { context, page, errors } = await site.phone();
  await page.goto(site.server.url);
  // Created from the page, so that the seat cookie is this browser's.
  const created = await page.evaluate(async () => {
    const res = await fetch('/api/games', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ opponent: 'computer', level: 2, first: 'computer' }),
    });
    return res.json();
  });
  assert.equal(created.color, 'black');
  await page.goto(`${site.server.url}/g/${created.game_id}`);
  await waitText(page, '#player-bottom .who', /Black · you/);
  await page.waitForSelector('#resign:not([hidden])');
  await page.click('#resign');
  await page.click('#resign-yes');
  await waitText(page, '#result .result-title', /^The computer wins$/);
  const before = page.url();
  await Promise.all([page.waitForURL((url) => url.href !== before && /\/g\/[A-Za-z0-9]+$/.test(url.pathname)),
    page.click('#new-game')]);
  await waitText(page, '#player-bottom .who', /Black · you/);
  assert.match(await page.textContent('#player-top .who'), /Casual \(level\s2\)/, 'the same level');
  const next = await state(new URL(page.url()).pathname.split('/').pop());
  assert.deepEqual([next.computer.color, next.computer.level, next.result], ['white', 2, null]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('nothing failed or left the site', async () => {
  for (const who of Object.values(people)) {
    assert.deepEqual(who.errors.filter((e) => !/WebSocket|Failed to load resource/.test(e)), []);
    assert.deepEqual(who.outside, []);
  }
});
