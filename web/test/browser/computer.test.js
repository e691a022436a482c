// A game against the computer on a phone, against the real server with
// the computer's pauses set to nothing: from the front page at level 1,
// a turn and the computer's reply, a takeback, a hint, a change of level;
// then a game where the computer moves first, and the front page's list.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  useSite, startServer, phoneContext, watchedPage, shot, noSidewaysScroll, waitText, tapPoint,
  boardRows, waitBoard, legalSteps, plainStep, cliBinary,
} from './harness.js';

let phone;
let gameId;
const site = useSite(['--computer-step-delay', '0ms', '--computer-min-think', '0ms'], {
  setUp: async () => { phone = await site.phone(); },
});

const moveCount = (page) => page.$$eval('#moves button.move', (bs) => bs.length);

async function waitMoveCount(page, n) {
  await page.waitForFunction((want) => document.querySelectorAll('#moves button.move').length === want, n,
    { timeout: 15_000 }).catch(async (e) => {
    throw new Error(`the move list never had ${n} turns: ${await moveCount(page)}`, { cause: e });
  });
}

// Plays one whole turn by tapping: a step without a line to choose, and
// End turn if the stone could capture again. The computer may have
// replied by the time the move list is read.
async function playTurn(page, url = site.server.url, id = gameId) {
  const before = await moveCount(page);
  const step = await plainStep(url, id);
  await tapPoint(page, step.from);
  await tapPoint(page, step.to);
  const ended = (n) => document.querySelectorAll('#moves button.move').length > n;
  await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length > n
    || !document.getElementById('end-turn').hidden, before, { timeout: 10_000 });
  if (!await page.evaluate(ended, before)) await page.click('#end-turn');
  await page.waitForFunction(ended, before, { timeout: 10_000 });
}

test('from the front page, level 1 and Play open the board at once, without an invitation', async () => {
  const { page } = phone;
  await page.goto(site.server.url);
  assert.equal(await page.isVisible('#computer-form'), false, 'the friend is offered first');
  await page.check('input[name=opponent][value=computer]');
  await page.waitForSelector('#computer-form:not([hidden])');
  assert.equal(await page.isVisible('#start-form'), false);
  assert.equal(await page.locator('input[name=level]').count(), 6);
  assert.match(await page.textContent('#computer-form .levels'), /1 Beginner.*knows the rules.*6 Strongest/s);
  await noSidewaysScroll(page);
  await shot(page, 'computer-01-front', { fullPage: true });
  await page.check('input[name=level][value="1"]');
  await page.check('input[name=computer-first][value=me]');
  await Promise.all([page.waitForURL(/\/g\/[A-Za-z0-9]+$/), page.click('#play-computer')]);
  gameId = new URL(page.url()).pathname.split('/').pop();
  await waitText(page, '#turn', /^Your turn$/);
  assert.match(await page.textContent('#player-top .who'), /^Computer · Beginner \(level\s1\)$/);
  assert.match(await page.textContent('#player-bottom .who'), /White · you/);
  for (const hidden of ['#invite', '#offer-draw', '#claim', '#offer']) {
    assert.equal(await page.isVisible(hidden), false, `${hidden} is not shown against the computer`);
  }
  assert.ok(await page.isVisible('#resign'));
  assert.ok(await page.isDisabled('#takeback'), 'nothing to take back yet');
  await noSidewaysScroll(page);
});

test('the computer replies to a turn; takeback puts the board back', async () => {
  const { page } = phone;
  const start = await boardRows(page);
  await playTurn(page);
  await waitMoveCount(page, 2);
  await waitText(page, '#turn', /^Your turn$/);
  assert.equal(await page.textContent('#player-top .presence'), '', 'no longer thinking');
  await shot(page, 'computer-02-reply', { fullPage: true });
  assert.ok(await page.isEnabled('#takeback'));
  await page.click('#takeback');
  await waitMoveCount(page, 0);
  await waitBoard(page, start);
  await waitText(page, '#turn', /^Your turn$/);
  assert.ok(await page.isDisabled('#takeback'));
});

// The hint is searched in the page's worker, at the server's budget for
// a hint (level 5's nodes) and with no tables this far from an ending:
// the command line's first step at the same count, and no hint frame
// sent to the server.
test('a hint marks a stone that can move and where it goes, searched in the browser', async () => {
  const { page } = phone;
  const sent = [];
  let received = 0;
  const record = (ws) => {
    ws.on('framesent', (f) => sent.push(String(f.payload)));
    ws.on('framereceived', () => { received++; });
  };
  page.on('websocket', record);
  await page.reload();
  await waitText(page, '#turn', /^Your turn$/);
  const { position } = await (await fetch(`${site.server.url}/api/games/${gameId}`)).json();
  await page.click('#ask-hint');
  await page.waitForSelector('svg.board .pt.hint-from', { timeout: 15_000 });
  const from = await page.getAttribute('svg.board .pt.hint-from', 'data-sq');
  const to = await page.getAttribute('svg.board .pt.hint-to', 'data-sq');
  const steps = await legalSteps(site.server.url, gameId);
  assert.ok(steps.some((s) => s.from === from && s.to === to), `${from}-${to} is legal`);
  const out = execFileSync(cliBinary(), ['analyse', position, '--nodes', '150000', '--tables', '0'], { encoding: 'utf8' });
  const best = /^bestturn (\S+)$/m.exec(out)[1];
  assert.equal(`${from}-${to}`, best.split('-').slice(0, 2).join('-').replace(/[AW]$/, ''), best);
  assert.ok(received > 0, 'the socket is watched');
  assert.ok(!sent.some((f) => f.includes('"hint"')), sent.join('\n'));
  page.off('websocket', record);
  await waitText(page, '#hint', new RegExp(`^Hint: move the stone on ${from} to ${to}\\.$`));
  assert.match(await page.getAttribute(`[data-sq="${from}"]`, 'aria-label'), /hint: move this stone/);
  await shot(page, 'computer-03-hint', { fullPage: true });
  await tapPoint(page, from);
  assert.equal(await page.locator('svg.board .pt.hint-from').count(), 1, 'the hint stays while the stone is held');
  await tapPoint(page, from);
});

test('where the engine cannot run in the browser, the server gives the hint', async () => {
  const { page, context } = phone;
  const sent = [];
  const record = (ws) => ws.on('framesent', (f) => sent.push(String(f.payload)));
  page.on('websocket', record);
  await context.route('**/js/engine-worker.js', (route) => route.abort());
  await page.reload();
  await waitText(page, '#turn', /^Your turn$/);
  await page.click('#ask-hint');
  await page.waitForSelector('svg.board .pt.hint-from', { timeout: 15_000 });
  assert.ok(sent.some((f) => f.includes('"hint"')), sent.join('\n'));
  const from = await page.getAttribute('svg.board .pt.hint-from', 'data-sq');
  const steps = await legalSteps(site.server.url, gameId);
  assert.ok(steps.some((s) => s.from === from), `${from} can move`);
  await context.unroute('**/js/engine-worker.js');
  page.off('websocket', record);
});

test('a new level shows its name', async () => {
  const { page } = phone;
  await page.selectOption('#level', '3');
  await waitText(page, '#player-top .who', /^Computer · Club \(level\s3\)$/);
  assert.equal(await page.inputValue('#level'), '3');
  assert.deepEqual(phone.errors, []);
  assert.deepEqual(phone.outside, []);
});

test('when the computer moves first it plays at once, and the game is in the front page\'s list', async () => {
  const { page } = phone;
  await page.goto(site.server.url);
  assert.ok(await page.isVisible('#computer-form'), 'the last choice is offered again');
  assert.equal(await page.isChecked('input[name=level][value="1"]'), true, 'and its level');
  assert.match(await page.textContent('#games-list'), /against the computer, Club \(level\s3\)/);
  await page.check('input[name=level][value="2"]');
  await page.check('input[name=computer-first][value=computer]');
  await Promise.all([page.waitForURL(/\/g\/[A-Za-z0-9]+$/), page.click('#play-computer')]);
  await waitMoveCount(page, 1);
  await waitText(page, '#turn', /^Your turn$/);
  assert.match(await page.textContent('#player-bottom .who'), /Black · you/);
  assert.match(await page.textContent('#player-top .who'), /Casual \(level\s2\)/);
  assert.ok(await page.isDisabled('#takeback'), 'the computer\'s turn is not the player\'s to take back');
  await noSidewaysScroll(page);
  assert.deepEqual(phone.errors, []);
});

test('after resigning, Play again starts the next game with the colours swapped', async () => {
  const { page } = phone;
  await page.click('#resign');
  await page.click('#resign-yes');
  await waitText(page, '#result .result-title', /^The computer wins$/);
  assert.equal(await page.textContent('#rematch'), 'Play again');
  assert.ok(await page.isDisabled('#takeback'), 'no takeback after a resignation');
  const before = page.url();
  await Promise.all([page.waitForURL((url) => url.href !== before && /\/g\/[A-Za-z0-9]+$/.test(url.pathname)),
    page.click('#rematch')]);
  await waitText(page, '#player-bottom .who', /White · you/);
  assert.match(await page.textContent('#player-top .who'), /Casual \(level\s2\)/, 'the same level');
  await waitText(page, '#turn', /^Your turn$/);
  assert.deepEqual(phone.errors, []);
});

// The computer thinks for 3 s after the player's turn, on a page that is
// already open: a game where it moves first would start thinking before
// the page has loaded, and a slow load would miss it.
test('while the computer thinks, the page says so', async () => {
  const slow = await startServer(['--computer-step-delay', '0ms', '--computer-min-think', '3000ms']);
  try {
    const context = await phoneContext(site.browser);
    const { page, errors } = await watchedPage(context, slow.url);
    await page.goto(slow.url);
    await page.check('input[name=opponent][value=computer]');
    await page.check('input[name=computer-first][value=me]');
    await Promise.all([page.waitForURL(/\/g\/[A-Za-z0-9]+$/), page.click('#play-computer')]);
    const id = new URL(page.url()).pathname.split('/').pop();
    await waitText(page, '#turn', /^Your turn$/);
    assert.equal(await page.isVisible('#player-top .presence.thinking'), false);
    await playTurn(page, slow.url, id);
    await waitText(page, '#turn', /^Thinking…$/);
    assert.ok(await page.isVisible('#player-top .presence.thinking'));
    assert.ok(await page.isDisabled('#ask-hint'), 'no hint on the computer\'s turn');
    await shot(page, 'computer-04-thinking');
    await waitMoveCount(page, 2);
    await waitText(page, '#turn', /^Your turn$/);
    assert.equal(await page.isVisible('#player-top .presence.thinking'), false);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await slow.close();
  }
});
