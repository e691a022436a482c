// Takes the pictures of docs/screenshots/: the front page at 1280x800
// and 1920x1080, the creator's invitation on a 390x844 phone just after
// starting a game (and the front page in Malagasy and the invitation in
// French on the same phone), and the game page in the middle of a game, as White
// sees it with a stone picked up, at a desktop in the light and dark
// themes, on a wide screen (game-wide, 1920x1080) and on a phone. The
// turns are played through the HTTP API, always the first of the steps
// that take the most, so every run shows the same position. With
// pngquant installed (Debian package `pngquant`) the files are made
// about three times smaller.
//
//   cargo build -p fanorona-server && node web/test/screenshots.mjs [DIR]

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, createGame, waitText } from './browser/harness.js';

const DIR = process.argv[2] || fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

async function api(server, path, body, secret) {
  const res = await fetch(`${server.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer;
}

const key = (s) => `${s.from}${s.to}${s.kind}`;
const best = (steps) => [...steps].sort((a, b) => b.captures.length - a.captures.length
  || key(a).localeCompare(key(b)))[0];

// Plays one whole turn of the side to move, capturing as long as it can.
async function playTurn(server, id, secret) {
  let state = await api(server, `/api/games/${id}`);
  const side = state.side_to_move;
  do {
    state = await api(server, `/api/games/${id}/intents`, { type: 'step', ...best(state.legal_steps) }, secret);
  } while (state.turn && state.side_to_move === side && state.legal_steps.length);
  return state;
}

// Saves the page as DIR/NAME.png, made smaller with pngquant when there.
async function save(page, name) {
  const file = join(DIR, `${name}.png`);
  await page.screenshot({ path: file });
  spawnSync('pngquant', ['--quality', '80-95', '--speed', '1', '--force', '--ext', '.png', file]);
}

// The front page as a first visit finds it, and the invitation its
// creator gets after pressing Start a game.
async function frontPages(browser, server) {
  for (const [name, viewport] of [['home-desktop', [1280, 800]], ['home-wide', [1920, 1080]]]) {
    const context = await browser.newContext({ viewport: { width: viewport[0], height: viewport[1] }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('.picture svg');
    await save(page, name);
    await context.close();
  }
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, colorScheme: 'light', isMobile: true, hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.click('#start');
  await page.waitForSelector('#qr path');
  await page.evaluate(() => window.scrollTo(0, 0));
  await save(page, 'invite-phone');
  // The same two in Malagasy and French, as their links open them.
  await page.goto(`${server.url}/?lang=mg`);
  await page.waitForSelector('.picture svg');
  await save(page, 'home-phone-mg');
  await page.goto(`${server.url}/?lang=fr`);
  await page.click('#start');
  await page.waitForSelector('#qr path');
  await page.evaluate(() => window.scrollTo(0, 0));
  await save(page, 'invite-phone-fr');
  await context.close();
}

const server = await startServer();
const browser = await launchBrowser();
try {
  await frontPages(browser, server);
  const game = await createGame(server.url, { first: 'me' });
  const invite = new URL(game.invite_link).searchParams.get('invite');
  const black = await api(server, `/api/games/${game.game_id}/join`, { invite });
  const secrets = { white: game.seat, black: black.seat };
  let state = await api(server, `/api/games/${game.game_id}`);
  // Until Black has just played a turn of more than one capture.
  while (state.moves.length < 6 || state.side_to_move !== 'white' || state.last_turn.path.length < 3) {
    state = await playTurn(server, game.game_id, secrets[state.side_to_move]);
    if (state.result || state.moves.length > 40) throw new Error('no such game in 40 turns');
  }
  const pick = best(state.legal_steps).from;
  const url = `${server.url}/g/${game.game_id}?seat=${game.seat}`;
  for (const [name, options] of [
    ['game-desktop-light', { viewport: { width: 1280, height: 800 }, colorScheme: 'light' }],
    ['game-desktop-dark', { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' }],
    ['game-phone-light', { viewport: { width: 390, height: 844 }, colorScheme: 'light', hasTouch: true }],
    ['game-wide', { viewport: { width: 1920, height: 1080 }, colorScheme: 'light' }],
  ]) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    await page.goto(url);
    await waitText(page, '#turn', /^Your turn$/);
    await page.click(`[data-sq="${pick}"] .hit`);
    await page.waitForSelector('.pt.selected');
    await page.mouse.move(0, 0);
    await save(page, name);
    await context.close();
  }
  console.log(`${state.moves.join(' ')}; White picks up ${pick}`);
} finally {
  await browser.close();
  await server.close();
}
