// The game page's first load in Chromium against the real server on
// 127.0.0.1: the time from navigation to a board drawn with the server's
// position (the 'board-drawn' mark of js/main.js), and the bytes and
// requests the load takes. Cold: a new browser context each time, so an
// empty cache and no cookie, through the seat link and its redirect.
// Warm: a reload in the same context, which revalidates every file.
// Prints a table of medians and 90th percentiles, and writes nothing.
//
//   node web/test/perf/first-load.mjs [--runs 20] [--latency 150]
//     (or FIRST_LOAD_RUNS=20, FIRST_LOAD_LATENCY=150)
//   FANORONA_SERVER_BIN=target/release/fanorona-server npm run perf:first-load
//
// The first load after the server starts has a column of its own: it also
// pays for compressing each file once, and for Chromium's first page. The
// script lives under web/test/ so that it is not embedded in the server.

import { readFileSync } from 'node:fs';
import { startServer, serverBinary, launchBrowser, createGame } from '../browser/harness.js';

function runsWanted() {
  const i = process.argv.indexOf('--runs');
  const text = i >= 0 ? process.argv[i + 1] : process.env.FIRST_LOAD_RUNS || '20';
  const runs = Number(text);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs wants a whole number above 0, not ${text}`);
  return runs;
}

// The round trip to add to every request, in milliseconds (Chromium's
// network emulation), to see the page as a phone far from the server
// would: on 127.0.0.1 a round trip costs nothing.
function latencyWanted() {
  const i = process.argv.indexOf('--latency');
  const text = i >= 0 ? process.argv[i + 1] : process.env.FIRST_LOAD_LATENCY || '0';
  const latency = Number(text);
  if (!Number.isFinite(latency) || latency < 0) throw new Error(`--latency wants milliseconds, 0 or more, not ${text}`);
  return latency;
}

// Runs in the page: whether the board is drawn and the load event is over.
function loaded() {
  const [nav] = performance.getEntriesByType('navigation');
  return performance.getEntriesByName('board-drawn', 'mark').length > 0 && nav && nav.loadEventEnd > 0;
}

// Runs in the page: the times of this load from the Performance API, in
// milliseconds since the navigation started, and the uncompressed size of
// each body by address.
function timings() {
  const [nav] = performance.getEntriesByType('navigation');
  const entries = [nav, ...performance.getEntriesByType('resource')];
  return {
    boardDrawn: performance.getEntriesByName('board-drawn', 'mark')[0].startTime,
    domContentLoaded: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    decoded: Object.fromEntries(entries.map((e) => [e.name, e.decodedBodySize])),
  };
}

// Records every HTTP answer of the page with the bytes Chromium read off
// the network for it: its headers and its body as sent (so compressed, and
// nothing for a 304 or an answer from the cache).
function watchNetwork(page) {
  const answers = [];
  const onFinished = (request) => {
    answers.push(request.sizes().then((s) => ({ url: request.url(), headers: s.responseHeadersSize, body: s.responseBodySize })));
  };
  page.on('requestfinished', onFinished);
  return () => {
    page.off('requestfinished', onFinished);
    return Promise.all(answers);
  };
}

async function measure(page, go) {
  const network = watchNetwork(page);
  await go();
  await page.waitForFunction(loaded, null, { timeout: 30_000 });
  // The icon may still be on its way after the load event.
  await page.waitForLoadState('networkidle');
  const { decoded, ...times } = await page.evaluate(timings);
  const answers = await network();
  const sum = (f) => answers.reduce((n, a) => n + f(a), 0);
  return {
    ...times,
    requests: answers.length,
    bodies: sum((a) => a.body),
    uncompressed: sum((a) => (a.body ? decoded[a.url] ?? a.body : 0)),
    wire: sum((a) => a.headers + a.body),
  };
}

async function coldAndWarm(browser, link, latency) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (latency > 0) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false, latency, downloadThroughput: -1, uploadThroughput: -1,
      });
    }
    const cold = await measure(page, () => page.goto(link));
    const warm = await measure(page, () => page.reload());
    return { cold, warm };
  } finally {
    await context.close();
  }
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

const ROWS = [
  ['boardDrawn', 'navigation to board drawn (ms)'],
  ['domContentLoaded', 'DOMContentLoaded (ms)'],
  ['load', 'load event (ms)'],
  ['requests', 'HTTP requests'],
  ['bodies', 'bytes of bodies, as sent'],
  ['uncompressed', 'the same bodies, uncompressed'],
  ['wire', 'bytes of headers and bodies'],
];

function table(first, colds, warms) {
  const cell = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
  const lines = [['', 'cold median', 'cold p90', 'warm median', 'warm p90', 'first after start']];
  for (const [key, label] of ROWS) {
    const of = (loads) => loads.map((l) => l[key]);
    lines.push([label, ...[colds, warms].flatMap((loads) => [0.5, 0.9].map((q) => cell(quantile(of(loads), q)))),
      cell(first[key])]);
  }
  const widths = lines[0].map((_, c) => Math.max(...lines.map((l) => l[c].length)));
  return lines.map((l) => l.map((v, c) => (c ? v.padStart(widths[c]) : v.padEnd(widths[c]))).join('  ')).join('\n');
}

// The 1, 5 and 15 minute load averages.
function loadAverage() {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

async function main() {
  const runs = runsWanted();
  const latency = latencyWanted();
  const bin = serverBinary();
  const loadBefore = loadAverage();
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const { seat_link: link } = await createGame(server.url, { first: 'me' });
    const { cold: first } = await coldAndWarm(browser, link, latency);
    const colds = [];
    const warms = [];
    for (let i = 0; i < runs; i++) {
      const { cold, warm } = await coldAndWarm(browser, link, latency);
      colds.push(cold);
      warms.push(warm);
    }
    console.log(`game page, ${runs} runs, ${bin}, Chromium ${browser.version()}, `
      + `added round trip ${latency} ms`);
    console.log(`load average before: ${loadBefore}; after: ${loadAverage()}`);
    console.log(table(first, colds, warms));
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
