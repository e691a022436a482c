// The page when the server cannot reach its database, in each language.
// The game's socket goes through a route of the test: it is closed the
// way the server closes it then (1013, "database unavailable"), and the
// page's next tries are held, as a server whose database is down refuses
// them, until the test lets them through to the real server again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, waitText, createGame,
} from './harness.js';
import { CATALOGS, LANGS } from '../catalogs.js';

const site = useSite();

/** A pattern matching exactly `text`. */
const exactly = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** A game between friends, both seated, with White to move. */
async function seatedGame() {
  const created = await createGame(site.server.url, { first: 'me' });
  const invite = new URL(created.invite_link).searchParams.get('invite');
  const res = await fetch(`${site.server.url}/api/games/${created.game_id}/join`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite }),
  });
  assert.equal(res.status, 200);
  return created;
}

for (const lang of LANGS) {
  test(`a socket closed for an unavailable database says so in ${lang} and comes back by itself`, async () => {
    const words = CATALOGS[lang];
    const { context, page, errors } = await site.phone();
    let down = false;
    let socket = null;
    let release = null;
    let held = null;
    const holding = new Promise((resolve) => { held = resolve; });
    await page.routeWebSocket((url) => url.pathname.endsWith('/ws'), async (ws) => {
      if (down) {
        held();
        await new Promise((resolve) => { release = resolve; });
      }
      socket = ws;
      ws.connectToServer();
    });
    const game = await seatedGame();
    await page.goto(`${site.local(game.seat_link)}&lang=${lang}`);
    await waitText(page, '#turn', exactly(words['game.yourTurn']));

    down = true;
    await socket.close({ code: 1013, reason: 'database unavailable' });
    await waitText(page, '#turn', exactly(words['game.databaseUnavailable']));
    // The page tries again by itself, and says the same while it waits.
    await holding;
    assert.equal(await page.textContent('#turn'), words['game.databaseUnavailable']);
    await page.waitForFunction(() => document.querySelectorAll('.pt.movable').length === 0);

    down = false;
    release();
    await waitText(page, '#turn', exactly(words['game.yourTurn']), 20_000);
    assert.deepEqual(errors.filter((e) => !/WebSocket/.test(e)), []);
    await context.close();
  });
}
