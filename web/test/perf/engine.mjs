// The engine in the browser against the same engine native: the analysis
// board searches the bench's positions for a fixed number of nodes in
// Chromium (WebAssembly, in its worker), and `fanorona analyse` searches
// them for the same nodes; the best turns must agree, and the speeds are
// printed, with the time the worker took to load the module and build the
// 4-stone tables (and to read them, for the page's next worker), and the
// bytes of the engine's file as sent.
//
//   node web/test/perf/engine.mjs [--nodes 2000000] [--runs 3]
//   FANORONA_SERVER_BIN=target/release/fanorona-server FANORONA_CLI_BIN=target/release/fanorona \
//     node web/test/perf/engine.mjs
//
// Medians of the runs. Writes nothing.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { startServer, launchBrowser, cliBinary } from '../browser/harness.js';

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  const value = Number(i >= 0 ? process.argv[i + 1] : fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} wants a whole number above 0`);
  return value;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const nodes = flag('nodes', 2000000);
const runs = flag('runs', 3);
const cli = cliBinary();
const positions = execFileSync(cli, ['bench', '--depth', '1'], { encoding: 'utf8' })
  .split('\n').map((l) => /position (.+)$/.exec(l)).filter(Boolean).map((m) => m[1]);
// The start, a middle game, and an ending.
const chosen = [positions[0], positions[3], positions[7]];

const wasm = readFileSync(new URL('../../engine/fanorona.wasm', import.meta.url));
console.log(`engine file: ${wasm.length} bytes, gzip ${gzipSync(wasm, { level: 9 }).length}, `
  + `brotli ${brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length}`);

const server = await startServer([]);
const browser = await launchBrowser();
try {
  const loads = [];
  console.log('| position | nodes | native ms | Chromium ms | Chromium / native | best turn |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const position of chosen) {
    const native = [];
    const web = [];
    let best = null;
    for (let r = 0; r < runs; r++) {
      const started = process.hrtime.bigint();
      const out = execFileSync(cli, ['analyse', position, '--nodes', String(nodes), '--tables', '0'], { encoding: 'utf8' });
      native.push(Number(process.hrtime.bigint() - started) / 1e6);
      const nativeBest = /bestturn (\S+)/.exec(out)[1];
      // Neither side has tables, so that both times are the search's
      // alone; the worker's start is timed apart, with the tables.
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/analysis?position=${encodeURIComponent(position)}&nodes=${nodes}&tables=0`);
      await page.waitForSelector('#analysis-best[data-done="true"]', { timeout: 300000 });
      const done = await page.evaluate(() => window.analysis);
      web.push(done.ms);
      loads.push(done.loaded);
      best = `${done.best}${done.best === nativeBest ? '' : ` (native: ${nativeBest})`}`;
      await context.close();
    }
    const [n, w] = [median(native), median(web)];
    console.log(`| ${position} | ${nodes} | ${n.toFixed(0)} | ${w.toFixed(0)} | ${(w / n).toFixed(2)} | ${best} |`);
  }
  console.log(`worker start: module loaded in ${median(loads.map((l) => l.loadMs)).toFixed(0)} ms, `
    + `medians of ${loads.length}`);
  // The 4-stone tables, built in the worker as the page does by default.
  const starts = [];
  for (let r = 0; r < runs; r++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/analysis?nodes=1`);
    await page.waitForSelector('#analysis-best[data-done="true"]', { timeout: 300000 });
    starts.push((await page.evaluate(() => window.analysis)).loaded);
    await context.close();
  }
  // A second worker of the same page (a search stopped, then asked
  // again) reads the tables the first one built.
  const reads = [];
  for (let r = 0; r < runs; r++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/analysis`);
    for (let again = 0; again < 2; again++) {
      await page.waitForFunction(() => document.querySelectorAll('#analysis-lines tr').length >= 2, null, { timeout: 300000 });
      await page.click('#analysis-toggle');
      await page.waitForSelector('#analysis-status[data-state="done"]');
      if (again === 0) await page.click('#analysis-toggle');
    }
    reads.push((await page.evaluate(() => window.analysis)).loaded);
    await context.close();
  }
  console.log(`the same tables read by a second worker: ${median(reads.map((l) => l.tablesMs)).toFixed(0)} ms, `
    + `median of ${runs} (${reads.filter((l) => l.tablesRead).length} read)`);
  const started = process.hrtime.bigint();
  const built = execFileSync(cli, ['tables', '--stones', '4'], { encoding: 'utf8' }).trim();
  const nativeMs = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`4-stone tables in the worker: ${median(starts.map((l) => l.tablesMs)).toFixed(0)} ms `
    + `(${starts[0].tableBytes} bytes), median of ${runs}; native: ${built} (${nativeMs.toFixed(0)} ms with the process)`);
} finally {
  await browser.close();
  await server.close();
}
