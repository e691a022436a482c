// The analysis board against the command line: the engine compiled to
// WebAssembly searches in the page's worker, and at a node limit it
// finds what `fanorona analyse POSITION --nodes N` finds, depth by depth,
// on positions from the opening to an ending the tables know, without
// asking anything of /api/. Then a search without a limit is stopped, and
// a position that is not one is refused. Turns are played on the board by
// the rules in the page, refused where the rules refuse them, taken back,
// kept in the address across a reload; the stones are edited by hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  useSite, cliBinary, noSidewaysScroll, shot, waitText, waitBoard, openCountingApi,
} from './harness.js';

let cli;
const site = useSite([], { setUp: () => { cli = cliBinary(); } });

/** The bench's positions (the search's signature, `fanorona bench`). */
function benchPositions() {
  return execFileSync(cli, ['bench', '--depth', '1'], { encoding: 'utf8' })
    .split('\n').map((line) => /position (.+)$/.exec(line)).filter(Boolean).map((m) => m[1]);
}

/** What the command line prints: each depth's line and score, and the best turn. */
function analyse(position, nodes) {
  const out = execFileSync(cli, ['analyse', position, '--nodes', String(nodes)], { encoding: 'utf8' });
  const white = position.split(' ')[1] === 'w';
  const lines = [];
  let best = null;
  for (const line of out.trim().split('\n')) {
    const info = /^info depth (\d+) .*score (cp (-?\d+)|\S+(?: \d+)?) nodes (\d+) .*?(?: pv (.+))?$/.exec(line);
    if (info) {
      const cp = info[3] === undefined ? null : Number(info[3]) * (white ? 1 : -1);
      lines.push({ depth: info[1], cp, nodes: Number(info[4]), pv: info[5] || '' });
    }
    const bestturn = /^bestturn (\S+)$/.exec(line);
    if (bestturn) best = bestturn[1];
  }
  return { lines, best };
}

test('at a node limit the page finds what the command line finds, asking nothing of /api/', async () => {
  const bench = benchPositions();
  // The start, a middle game, and two endings: 13 stones, then 9, where
  // the 4-stone tables answer inside the search.
  const positions = [bench[0], bench[3], bench[7], bench[12]];
  const nodes = 200000;
  const { context, page, errors, outside, api } = await openCountingApi(site, '/analysis');
  for (const position of positions) {
    const expected = analyse(position, nodes);
    await page.goto(`${site.server.url}/analysis?position=${encodeURIComponent(position)}&nodes=${nodes}`);
    await page.waitForSelector('#analysis-best[data-done="true"]', { timeout: 60000 });
    assert.equal(await page.textContent('#analysis-best'), expected.best, position);
    const rows = await page.$$eval('#analysis-lines tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    // The deepest first on the page.
    rows.reverse();
    assert.equal(rows.length, expected.lines.length, position);
    rows.forEach(([depth, score, pv], i) => {
      const line = expected.lines[i];
      assert.equal(depth, line.depth, position);
      assert.equal(pv, line.pv, `${position} at depth ${depth}`);
      if (line.cp !== null) {
        const sign = line.cp > 0 ? '+' : line.cp < 0 ? '−' : '';
        assert.equal(score, `${sign}${(Math.abs(line.cp) / 100).toFixed(2)}`, `${position} at depth ${depth}`);
      }
    });
    // Every node of the budget searched (or the search ended sooner).
    const done = await page.evaluate(() => window.analysis);
    const last = expected.lines[expected.lines.length - 1];
    assert.ok(done.nodes <= nodes && done.nodes >= last.nodes, `${done.nodes} nodes`);
    const status = await page.textContent('#analysis-status');
    assert.ok(status.includes(done.nodes.toLocaleString('en')), status);
  }
  assert.deepEqual(api, []);
  assert.deepEqual(errors, []);
  assert.deepEqual(outside, []);
  await noSidewaysScroll(page);
  await shot(page, 'analysis-360', { fullPage: true });
  await context.close();
});

test('a search without a limit shows its lines as they come and stops when told', async () => {
  const { context, page, errors } = await openCountingApi(site, '/analysis');
  // Depth 6 of the start takes some 50,000 nodes: the search is well under way.
  await page.waitForFunction(() => document.querySelectorAll('#analysis-lines tr').length >= 6, null, { timeout: 60000 });
  assert.equal(await page.getAttribute('#analysis-status', 'data-state'), 'searching');
  assert.match(await page.textContent('#analysis-best'), /^[a-i][1-5]-[a-i][1-5]/);
  await page.click('#analysis-toggle');
  await page.waitForSelector('#analysis-status[data-state="done"]');
  assert.equal((await page.textContent('#analysis-status')).trim(), 'Stopped.');
  const rows = await page.locator('#analysis-lines tr').count();
  assert.equal(await page.textContent('#analysis-toggle'), 'Search again');
  const first = (await page.evaluate(() => window.analysis)).loaded;
  assert.equal(first.tablesRead, false);
  assert.ok(first.tableBytes > 2_000_000, `${first.tableBytes} bytes of tables`);
  // Searching again starts from the first depth, in a new worker that
  // reads the tables the first one built.
  await page.click('#analysis-toggle');
  await page.waitForFunction(() => document.querySelectorAll('#analysis-lines tr').length >= 2, null, { timeout: 60000 });
  await page.click('#analysis-toggle');
  await page.waitForSelector('#analysis-status[data-state="done"]');
  const second = (await page.evaluate(() => window.analysis)).loaded;
  assert.equal(second.tablesRead, true);
  assert.equal(second.tableBytes, first.tableBytes);
  assert.ok(rows >= 6);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a position that is not one is refused, and the form opens another', async () => {
  const { context, page, errors } = await openCountingApi(site, '/analysis?position=nonsense');
  await page.waitForSelector('#analysis-error:not([hidden])');
  assert.match(await page.textContent('#analysis-error'), /cannot be analysed: nonsense/);
  assert.equal(await page.locator('#analysis-lines tr').count(), 0);
  const ending = '.B......./...W...../........W/.......W./.W......W w 1';
  await page.fill('#analysis-position', ending);
  await Promise.all([page.waitForURL(/position=/), page.click('#analysis-form button[type=submit]')]);
  assert.equal(new URL(page.url()).searchParams.get('position'), ending);
  await page.waitForSelector('#analysis-lines tr');
  assert.deepEqual(errors, []);
  await context.close();
});

// White's e2 takes e4 and e5 by approach from e3 and may go on to take
// c3; i1 could only make a paika, which the capture forbids.
const TWO_WAYS = '....B..../....B..../..B....../....W..../........W w';
const AFTER = '........./........./..B.W..../........./........W b 0';

async function searched(page, position) {
  await page.waitForFunction((p) => window.analysis && window.analysis.position === p
    && document.querySelector('#analysis-best').dataset.done === 'true', position, { timeout: 60000 });
}

async function tap(page, sq) {
  await page.click(`#analysis-board [data-sq="${sq}"] .hit`);
}

test('turns are played by the rules, taken back and kept in the address; the stones are edited', async () => {
  const { context, page, errors, outside, api } = await openCountingApi(
    site,
    `/analysis?position=${encodeURIComponent(TWO_WAYS)}&nodes=20000&tables=0`,
  );
  await searched(page, TWO_WAYS);
  // The best turn's first step is marked on the board.
  const best = await page.textContent('#analysis-best');
  assert.match(best, /^e2-e3A/);
  assert.equal(await page.getAttribute('#analysis-board .hint-from', 'data-sq'), 'e2');
  assert.equal(await page.getAttribute('#analysis-board .hint-to', 'data-sq'), 'e3');

  // A paika while a capture exists is refused, and says why.
  await tap(page, 'i1');
  await waitText(page, '#analysis-says', /A capture is possible, so it is compulsory/);
  assert.equal(await page.getAttribute('#analysis-says', 'data-tone'), 'wrong');
  // e2-e3 takes e4 and e5; the turn is ended there, before c3.
  await tap(page, 'e2');
  await tap(page, 'e3');
  await page.waitForSelector('#analysis-end:not([hidden])');
  await page.click('#analysis-end');
  await searched(page, AFTER);
  await waitBoard(page, '........./........./..B.W..../........./........W');
  assert.deepEqual(await page.$$eval('#analysis-played li', (li) => li.map((l) => l.textContent)), ['e2-e3A']);
  let url = new URL(page.url());
  assert.equal(url.searchParams.get('position'), AFTER);
  assert.equal(url.searchParams.get('played'), 'e2-e3A');
  assert.equal(await page.inputValue('#analysis-position'), AFTER);

  // A reload keeps the turn to take back; taking it back returns to the start.
  await page.reload();
  await searched(page, AFTER);
  assert.deepEqual(await page.$$eval('#analysis-played li', (li) => li.map((l) => l.textContent)), ['e2-e3A']);
  await page.click('#analysis-back');
  await searched(page, TWO_WAYS);
  await waitBoard(page, '....B..../....B..../..B....../....W..../........W');
  assert.equal(await page.locator('#analysis-played li').count(), 0);
  assert.ok(await page.isDisabled('#analysis-back'));
  url = new URL(page.url());
  assert.equal(url.searchParams.get('position'), TWO_WAYS);
  assert.equal(url.searchParams.get('played'), null);

  // Editing: e3 from empty to White, c3 from Black to empty, i1 from
  // White to Black; Black to move.
  await page.click('#analysis-edit');
  assert.equal(await page.getAttribute('#analysis-edit', 'aria-pressed'), 'true');
  await page.waitForSelector('#analysis-editor:not([hidden])');
  for (const sq of ['e3', 'c3', 'i1']) await tap(page, sq);
  await waitBoard(page, '....B..../....B..../....W..../....W..../........B');
  await page.check('input[name="analysis-turn"][value="black"]');
  await page.click('#analysis-edit-done');
  const edited = '....B..../....B..../....W..../....W..../........B b 0';
  await searched(page, edited);
  assert.ok(await page.isHidden('#analysis-editor'));
  assert.equal(new URL(page.url()).searchParams.get('position'), edited);
  assert.equal(await page.locator('#analysis-played li').count(), 0);

  // A position the rules refuse is not played from: 23 white stones.
  await page.click('#analysis-edit');
  await page.click('#analysis-start');
  await tap(page, 'e3');
  await page.click('#analysis-edit-done');
  await waitText(page, '#analysis-says', /cannot be analysed: white has 23 stones/);
  assert.equal(await page.getAttribute('#analysis-says', 'data-tone'), 'wrong');
  assert.ok(await page.isVisible('#analysis-editor'));
  assert.equal(new URL(page.url()).searchParams.get('position'), edited);

  assert.deepEqual(api, []);
  assert.deepEqual(errors, []);
  assert.deepEqual(outside, []);
  await noSidewaysScroll(page);
  await shot(page, 'analysis-played-360', { fullPage: true });
  await context.close();
});
