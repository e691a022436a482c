// The review of a game in Chromium: each position of a game scored in
// the page's worker as `fanorona analyse POSITION --nodes N` scores it,
// the costly turns marked as the same scores say, a marked turn shown with
// the engine's better turn and kept in the address, the review stopped
// and taken up again, and a game page's finished game opening its review;
// nothing asked of /api/ while it reviews.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  useSite, cliBinary, noSidewaysScroll, shot, waitText, openCountingApi,
} from './harness.js';
import { whiteStones, turnCosts } from '../../js/review-core.js';

let cli;
const site = useSite([], { setUp: () => { cli = cliBinary(); } });

const START = 'BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0';
const NODES = 20000;

const run = (...args) => execFileSync(cli, args, { encoding: 'utf8' }).trim();

/** A game of eight turns, each the first legal turn in the command line's order. */
function firstTurnsGame() {
  const turns = [];
  const positions = [START];
  for (let i = 0; i < 8; i++) {
    turns.push(run('moves', positions[i]).split('\n')[0]);
    positions.push(run('play', START, ...turns).split('\n')[0]);
  }
  return { turns, positions };
}

/** What the command line says of a position: White's stones and the best turn. */
function scoreOf(position) {
  const out = run('analyse', position, '--nodes', String(NODES)).split('\n');
  const info = out.filter((l) => l.startsWith('info ')).pop();
  const m = / score (cp (-?\d+)|(win|loss) (\d+)|(won|lost)) /.exec(info);
  const score = m[2] !== undefined ? { kind: 'cp', value: Number(m[2]) }
    : m[3] ? { kind: m[3], value: Number(m[4]) } : { kind: m[5] };
  const best = /^bestturn (\S+)$/.exec(out[out.length - 1])[1];
  return { white: whiteStones({ score, whiteToMove: position.split(' ')[1] === 'w' }), best };
}

test('each position is scored as the command line scores it, and the costly turns are marked', async () => {
  const { turns, positions } = firstTurnsGame();
  const expected = positions.map(scoreOf);
  const movers = positions.map((p) => (p.split(' ')[1] === 'w' ? 'white' : 'black'));
  const costs = turnCosts(expected.map((e) => e.white), turns, expected.map((e) => e.best), movers);
  const query = new URLSearchParams({ start: START, turns: turns.join(' '), nodes: String(NODES) });
  const { context, page, errors, outside, api } = await openCountingApi(site, `/review?${query}`);
  await page.waitForFunction(() => window.review && window.review.done, null, { timeout: 120000 });
  const review = await page.evaluate(() => window.review);
  assert.deepEqual(review.best, expected.map((e) => e.best));
  review.white.forEach((w, i) => assert.ok(Math.abs(w - expected[i].white) < 1e-9, `position ${i}: ${w} against ${expected[i].white}`));
  await waitText(page, '#review-status', new RegExp(`^Every position scored: 9 positions, ${NODES.toLocaleString('en')} nodes each\\.$`));
  const marks = await page.$$eval('#review-turns button', (bs) => bs.map((b) => b.dataset.mark || null));
  assert.deepEqual(marks, costs.map((c) => c.mark));
  assert.equal(await page.locator('#review-graph circle.mark').count(), costs.filter((c) => c.mark).length);
  assert.ok(costs.some((c) => c.mark), `a turn of this game is marked: ${JSON.stringify(costs)}`);

  // A marked turn: the position before it, the engine's turn drawn, said, and in the address.
  const k = costs.findIndex((c) => c.mark) + 1;
  await page.click(`#review-turns button[data-at="${k}"]`);
  assert.equal(new URL(page.url()).searchParams.get('at'), String(k));
  await page.waitForFunction((p) => document.querySelector('#review').dataset.position === p, positions[k - 1]);
  const where = await page.textContent('#review-where');
  assert.match(where, new RegExp(`^Turn ${k}: (White|Black) played ${turns[k - 1]}\\. An? (inaccuracy|mistake|blunder): it loses \\d+\\.\\d\\d stones`));
  assert.ok(where.includes(`Better: ${expected[k - 1].best}`), where);
  assert.equal(await page.getAttribute('#review', 'data-shown'), expected[k - 1].best);
  assert.equal(await page.getAttribute(`#review-turns button[data-at="${k}"]`, 'aria-current'), 'step');
  assert.equal(new URL(await page.getAttribute('#review-analyse', 'href'), site.server.url).searchParams.get('position'), positions[k - 1]);
  // The arrows step through it; a reload keeps the turn shown.
  await page.keyboard.press('ArrowRight');
  assert.equal(new URL(page.url()).searchParams.get('at'), String(k + 1));
  await page.reload();
  await page.waitForFunction(() => window.review && window.review.done, null, { timeout: 120000 });
  await waitText(page, '#review-where', new RegExp(`^Turn ${k + 1}: `));
  // A click on the graph goes to the turn under it.
  const graph = page.locator('#review-graph svg');
  const box = await graph.boundingBox();
  await graph.click({ position: { x: box.width * ((8 + (584 * 3) / 8) / 600), y: box.height / 2 } });
  assert.equal(new URL(page.url()).searchParams.get('at'), '3');
  await waitText(page, '#review-where', /^Turn 3: /);
  await page.click('#review-first');
  await waitText(page, '#review-where', /^The start: 8 turns to review\.$/);
  assert.equal(new URL(page.url()).searchParams.get('at'), null);

  assert.deepEqual(api, []);
  assert.deepEqual(errors, []);
  assert.deepEqual(outside, []);
  await noSidewaysScroll(page);
  await shot(page, 'review-360', { fullPage: true });
  await context.close();
});

test('a review can be stopped and taken up again; a game that is not one is refused', async () => {
  const { turns } = firstTurnsGame();
  const query = new URLSearchParams({ start: START, turns: turns.join(' '), nodes: '5000000' });
  const { context, page, errors } = await openCountingApi(site, `/review?${query}`);
  await page.waitForSelector('#review-status[data-state="scoring"]');
  await page.click('#review-toggle');
  await page.waitForSelector('#review-status[data-state="stopped"]');
  assert.match(await page.textContent('#review-status'), /^Stopped after \d of 9 positions\.$/);
  assert.equal(await page.textContent('#review-toggle'), 'Go on');
  await page.click('#review-toggle');
  await page.waitForSelector('#review-status[data-state="scoring"]');
  await page.click('#review-toggle');
  await page.waitForSelector('#review-status[data-state="stopped"]');

  await page.goto(`${site.server.url}/review?start=nonsense&turns=d3-e3A`);
  await waitText(page, '#review-error', /^This game cannot be reviewed: nonsense$/);
  await page.goto(`${site.server.url}/review?${new URLSearchParams({ start: START, turns: 'd3-e3A e2-e3' })}`);
  await waitText(page, '#review-error', /^This game cannot be reviewed: turn 2, e2-e3, is not allowed there$/);
  assert.deepEqual(errors, []);
  await context.close();
});
