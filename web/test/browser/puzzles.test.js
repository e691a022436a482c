// The puzzles page in Chromium: a puzzle solved by playing its solution
// on the board step by step, the next one failed with another legal turn
// and its solution then drawn, the progress kept in localStorage across a
// reload and started over, all without asking anything of /api/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import {
  useSite, cliBinary, noSidewaysScroll, shot, waitText, waitBoard, openCountingApi,
} from './harness.js';
import { SQUARES } from '../../js/geometry.js';

let cli;
const site = useSite([], { setUp: () => { cli = cliBinary(); } });

const FILE = readFileSync(new URL('../../puzzles/puzzles.txt', import.meta.url), 'utf8');
const PUZZLES = new Map(FILE.split('\n').filter((l) => l && !l.startsWith('#')).map((line) => {
  const [id, position, solution] = line.split('\t');
  return [id, { id, position, solution }];
}));

/** The puzzle on the board, once it can be played. */
async function shown(page) {
  await page.waitForSelector('#puzzle[data-puzzle]:not([aria-busy])');
  const id = await page.getAttribute('#puzzle', 'data-puzzle');
  assert.ok(PUZZLES.has(id), id);
  assert.equal(new URL(page.url()).searchParams.get('id'), id);
  return PUZZLES.get(id);
}

/** Plays `turn` on the board: its stone, each landing (with its line where two are offered), End turn if it could go on. */
async function playTurn(page, turn) {
  const [origin, ...landings] = turn.split('-');
  await page.click(`#puzzle-board [data-sq="${origin}"] .hit`);
  for (const landing of landings) {
    await page.click(`#puzzle-board [data-sq="${landing.slice(0, 2)}"] .hit`);
    const kind = { A: 'approach', W: 'withdrawal' }[landing[2]];
    if (kind && await page.isVisible('#puzzle-choices')) {
      await page.locator('#puzzle-choices button', { hasText: kind }).click();
    }
    await page.waitForFunction(() => !document.querySelector('#puzzle').hasAttribute('aria-busy'));
  }
  if (!await page.getAttribute('#puzzle', 'data-result')) {
    await page.waitForSelector('#puzzle-end:not([hidden])');
    await page.click('#puzzle-end');
  }
  await page.waitForSelector('#puzzle[data-result]');
}

test('a puzzle solved, the next failed and its solution shown, the progress kept', async () => {
  const { context, page, errors, outside, api } = await openCountingApi(site, '/puzzles');
  const total = PUZZLES.size;
  const first = await shown(page);
  assert.match(await page.textContent('#puzzle-number'), new RegExp(`^Puzzle 1 of ${total}$`));
  assert.match(await page.textContent('#puzzle-difficulty'), /^Difficulty: 1 of 5$/);
  assert.match(await page.textContent('#puzzle-task'), /^(White|Black) to play: find the best turn\.$/);
  await playTurn(page, first.solution);
  assert.equal(await page.getAttribute('#puzzle', 'data-result'), 'right');
  await waitText(page, '#puzzle-says', new RegExp(`^Right: ${first.solution} takes \\d+ stones?, clearly the best turn here\\.$`));
  assert.equal(await page.getAttribute('#puzzle-says', 'data-tone'), 'right');
  assert.equal(await page.textContent('#puzzle-progress'), `Solved 1 · missed 0 · ${total - 1} to go`);

  await page.click('#puzzle-next');
  await page.waitForFunction((id) => document.querySelector('#puzzle').dataset.puzzle !== id, first.id);
  const second = await shown(page);
  // A legal turn that is not the solution nor on the way to it.
  const turns = execFileSync(cli, ['moves', second.position], { encoding: 'utf8' }).trim().split('\n');
  const wrong = turns.find((turn) => turn !== second.solution && !second.solution.startsWith(`${turn}-`));
  assert.ok(wrong, `${second.position}: ${turns.join(' ')}`);
  await playTurn(page, wrong);
  assert.equal(await page.getAttribute('#puzzle', 'data-result'), 'wrong');
  await page.waitForSelector('#puzzle[data-shown="solution"]');
  await waitText(page, '#puzzle-says', new RegExp(`^Not the best: ${wrong} is allowed.*The solution is drawn on the board: ${second.solution}\\.$`));
  assert.equal(await page.getAttribute('#puzzle-says', 'data-tone'), 'wrong');
  // The solution played on the board: the position after it, the point
  // its stone left and those it landed on marked (the spots follow the
  // order of the points).
  const after = execFileSync(cli, ['play', second.position, second.solution], { encoding: 'utf8' }).trim();
  await waitBoard(page, after.split(' ')[0]);
  const [origin, ...landings] = second.solution.split('-');
  const marked = (mark) => page.$$eval('#puzzle-board .spot', (spots, m) => spots
    .map((spot, i) => (spot.classList.contains(m) ? i : -1)).filter((i) => i >= 0), mark);
  assert.deepEqual((await marked('from')).map((i) => SQUARES[i]), [origin]);
  assert.deepEqual((await marked('to')).map((i) => SQUARES[i]).sort(), landings.map((l) => l.slice(0, 2)).sort());
  assert.equal(await page.textContent('#puzzle-progress'), `Solved 1 · missed 1 · ${total - 2} to go`);
  await shot(page, 'puzzles-solution-360', { fullPage: true });

  // Trying again is allowed, and the first result stays.
  await page.click('#puzzle-retry');
  await page.waitForFunction(() => !document.querySelector('#puzzle').dataset.result);
  await playTurn(page, second.solution);
  assert.equal(await page.getAttribute('#puzzle', 'data-result'), 'right');
  assert.equal(await page.textContent('#puzzle-progress'), `Solved 1 · missed 1 · ${total - 2} to go`);

  // A reload keeps the progress and the puzzle shown.
  await page.reload();
  assert.equal((await shown(page)).id, second.id);
  assert.equal(await page.textContent('#puzzle-progress'), `Solved 1 · missed 1 · ${total - 2} to go`);
  await page.click('#puzzle-skip');
  const third = await shown(page);
  assert.ok(![first.id, second.id].includes(third.id));
  await page.click('#puzzle-reset');
  assert.equal((await shown(page)).id, first.id);
  assert.equal(await page.textContent('#puzzle-progress'), `Solved 0 · missed 0 · ${total} to go`);

  assert.deepEqual(api, []);
  assert.deepEqual(errors, []);
  assert.deepEqual(outside, []);
  await noSidewaysScroll(page);
  await context.close();
});

test('the puzzles page speaks French and Malagasy', async () => {
  for (const [lang, title, next] of [['fr', 'Puzzles', /^Puzzle 1 sur \d+$/], ['mg', 'Ankamantatra', /^Ankamantatra 1 amin'ny \d+$/]]) {
    const { context, page, errors } = await site.phone();
    await page.goto(`${site.server.url}/puzzles?lang=${lang}`);
    await shown(page);
    assert.equal((await page.textContent('h1')).trim(), title);
    assert.match(await page.textContent('#puzzle-number'), next);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
