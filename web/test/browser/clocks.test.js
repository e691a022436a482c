// Clocks, against the real server: chosen on the front page, shown beside
// both players, the player to move's counting down, low time shown and
// said, at a desktop's size and a phone's, in each language. The pages'
// time is Playwright's clock, moved forward by hand; the server's own
// decision at zero is covered by the server's tests
// (crates/fanorona-server/tests/it/clocks.rs), where its time is moved
// the same way.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, phoneContext, friendsGame, playTurnsOverApi, waitText } from './harness.js';
import { audit } from './axe.js';
import { translatorFor, LANGS } from '../catalogs.js';

const site = useSite(['--intents-per-second', '1000']);

const SIZES = {
  desktop: () => site.browser.newContext({ viewport: { width: 1280, height: 800 } }),
  phone: () => phoneContext(site.browser, { viewport: { width: 390, height: 844 } }),
};

const clockOf = (page, row) => page.locator(`#player-${row} .clock`);

for (const [size, context] of Object.entries(SIZES)) {
  for (const lang of LANGS) {
    test(`the clock is chosen on the front page and the game has it (${size}, ${lang})`, async () => {
      const t = translatorFor(lang);
      const { page, errors } = await site.open(`/?lang=${lang}`, { context: await context() });
      assert.equal((await page.textContent('label[for=clock]')).trim(), t('clock.legend'));
      const options = await page.$$eval('#clock option', (os) => os.map((o) => o.textContent));
      assert.deepEqual(options, [t('clock.none'), '3+2', '5+3', '10+5', '15+10', t('clock.day'), t('clock.days3'), t('clock.days7')]);
      const groups = await page.$$eval('#clock optgroup', (gs) => gs.map((g) => g.label));
      assert.deepEqual(groups, [t('clock.realTime'), t('clock.correspondence')]);
      await audit(page, `the front page with its clock choice (${size}, ${lang})`);
      // On a phone, the choice and its button fit the first screen.
      const start = await page.locator('#start').boundingBox();
      const height = page.viewportSize().height;
      assert.ok(start.y + start.height <= height, `Start ends at ${start.y + start.height} px of ${height}`);
      await page.selectOption('#clock', size === 'phone' ? '3d' : '5+3');
      await page.click('#start');
      await page.waitForSelector('#invite:not([hidden])');
      const invite = await page.inputValue('#invite-link');
      const id = new URL(invite).pathname.split('/').pop();
      const state = await (await fetch(`${site.server.url}/api/games/${id}`)).json();
      const expected = size === 'phone' ? { kind: 'correspondence', days: 3 } : { kind: 'real_time', minutes: 5, increment: 3 };
      for (const [k, v] of Object.entries(expected)) assert.equal(state.clock[k], v, JSON.stringify(state.clock));
      assert.deepEqual(errors, []);
      await page.context().close();
    });

    test(`both clocks show, the mover's runs and turns low, and the page says so (${size}, ${lang})`, async () => {
      const t = translatorFor(lang);
      const game = await friendsGame(site.server.url, { first: 'me', clock: { minutes: 1, increment: 0 } });
      const ctx = await context();
      await ctx.clock.install();
      const white = await site.watch(ctx);
      const { page } = white;
      const sent = [];
      page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
      await page.goto(site.local(`${game.seat_link}&lang=${lang}`));
      // Before each player has moved once, no clock runs.
      await waitText(page, '#player-bottom .clock', /^1:00$/);
      await waitText(page, '#player-top .clock', /^1:00$/);
      assert.equal(await clockOf(page, 'bottom').evaluate((n) => n.classList.contains('running')), false);
      await playTurnsOverApi(site.server.url, game, 2);
      await page.waitForSelector('#player-bottom .clock.running');
      assert.equal(await clockOf(page, 'bottom').getAttribute('aria-label'), t('clock.of', { color: t('color.white') }));
      assert.equal(await clockOf(page, 'top').getAttribute('aria-label'), t('clock.of', { color: t('color.black') }));
      assert.equal(await clockOf(page, 'bottom').getAttribute('role'), 'timer');
      // No takebacks with a clock.
      assert.equal(await page.isHidden('#ask-takeback'), true);
      await page.clock.fastForward(45_000);
      await waitText(page, '#player-bottom .clock', /^0:1[0-5]$/);
      await page.waitForSelector('#player-bottom .clock.low');
      await waitText(page, '#live', new RegExp(`^${t('clock.low').replace(/[.?]/g, '\\$&')}$`));
      assert.equal(await page.textContent('#player-top .clock'), '1:00', 'the waiting clock stands still');
      await audit(page, `a game with a clock, low on time (${size}, ${lang})`);
      const row = await page.locator('#player-bottom').boundingBox();
      const clock = await clockOf(page, 'bottom').boundingBox();
      assert.ok(clock.x >= row.x && clock.x + clock.width <= row.x + row.width + 0.5, 'the clock is in its row');
      // At zero by the page's time (the server's has not come): the page
      // shows zero, claims after a moment, and a refusal says nothing.
      await page.clock.fastForward(20_000);
      await waitText(page, '#player-bottom .clock', /^0:00\.0$/);
      assert.ok(!sent.some((f) => f.includes('"flag"')), 'not claimed at once');
      await page.clock.fastForward(3_000);
      await page.waitForFunction(() => true);
      for (let i = 0; i < 50 && !sent.some((f) => f.includes('"flag"')); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(sent.some((f) => f.includes('"flag"')), `claimed: ${sent}`);
      await page.waitForTimeout(300);
      assert.equal(await page.$('#hint.error'), null, 'no notice for a claim a moment early');
      assert.deepEqual(white.errors, []);
      await page.context().close();
    });
  }
}
