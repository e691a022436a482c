// The layout's promises, measured in Chromium: on a desktop (1280x800
// and 1920x1080) the front page sets its one-line pitch and its choices
// beside the board, and the game page makes the board as large as the
// window allows with the panel beside it at a reading width; on a phone
// the creator sees the whole invitation link, Copy and "Waiting for your
// friend…" without scrolling, and the board takes the width; on a
// 390x844 phone, in every language, the front page's choice and its Start
// or Play button are in the first screen, the computer's six levels a row
// of numbered radio buttons with the chosen one's name and line under
// them; at 360 px no
// page scrolls sideways; every text takes its size from the type scale
// and its face from the system's own fonts, with no font file loaded.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, phoneContext, shot, noSidewaysScroll, waitText, createGame, pressJoin,
} from './harness.js';
import { translatorFor, CATALOGS, LANGS } from '../catalogs.js';
import { audit, accessible } from './axe.js';

const t = translatorFor('en');
const site = useSite();

const DESKTOPS = [[1280, 800], [1920, 1080]];
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const { local } = site;

/** The box of `selector` on the screen, rounded to whole pixels. */
async function box(page, selector) {
  const b = await page.locator(selector).boundingBox();
  assert.ok(b, `${selector} is shown`);
  return { x: Math.round(b.x), y: Math.round(b.y), w: Math.round(b.width), h: Math.round(b.height),
    right: Math.round(b.x + b.width), bottom: Math.round(b.y + b.height) };
}

/** Fails unless `selector` lies wholly within the first screen. */
async function inFirstScreen(page, selector) {
  const b = await box(page, selector);
  const view = page.viewportSize();
  const scrolled = await page.evaluate(() => window.scrollY);
  assert.equal(scrolled, 0, 'the page is not scrolled');
  assert.ok(b.y >= 0 && b.bottom <= view.height && b.x >= 0 && b.right <= view.width,
    `${selector} lies at ${b.x},${b.y}..${b.right},${b.bottom} in a ${view.width}x${view.height} window`);
}

/** A game between two people, both seated: the creator's page on `options`. */
async function playing(options) {
  const created = await createGame(site.server.url, { first: 'me' });
  const context = await site.browser.newContext(options);
  const watched = await site.watch(context);
  const friend = await phoneContext(site.browser);
  const friendPage = await friend.newPage();
  await friendPage.goto(local(created.invite_link));
  await pressJoin(friendPage);
  await watched.page.goto(local(created.seat_link));
  await waitText(watched.page, '#turn', /^Your turn$/);
  return { ...watched, context, friend };
}

for (const [width, height] of DESKTOPS) {
  test(`at ${width}x${height} the front page sets its pitch and choices beside the board, all in the first screen`, async () => {
    const context = await site.browser.newContext({ viewport: { width, height } });
    const { page, errors } = await site.watch(context);
    await page.goto(site.server.url);
    await page.waitForSelector('.picture svg.board');
    assert.equal((await page.textContent('.pitch')).trim(), t('home.pitch'));
    const pitch = await box(page, '.pitch');
    const board = await box(page, '.picture svg.board');
    const start = await box(page, '#start');
    assert.ok(pitch.right <= board.x && start.right <= board.x, 'the pitch and the Start button are left of the board');
    assert.ok(pitch.y < board.bottom && pitch.bottom > board.y, 'the pitch is beside the board, not above or below it');
    assert.ok(board.w >= 0.45 * width && board.w <= 0.7 * width, `the board is ${board.w} px wide in ${width}`);
    assert.ok(pitch.w >= 250 && pitch.w <= 0.4 * width, `the pitch column is ${pitch.w} px wide`);
    for (const sel of ['h1', '.pitch', '.picture svg.board', '.opponents', '#start', '.learn']) await inFirstScreen(page, sel);
    // The content fills the window: as much room is left above it as below.
    const main = await box(page, 'main');
    const footer = await box(page, '.site-footer');
    assert.ok(footer.bottom >= height - 2, `the footer ends at ${footer.bottom}, at the window's foot`);
    assert.ok(main.w >= 0.8 * Math.min(width, 84 * 18), `the page is ${main.w} px wide in ${width}`);
    await noSidewaysScroll(page);
    await shot(page, `layout-home-${width}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`at ${width}x${height} the game page's board is as large as the window allows, the panel beside it`, async () => {
    const { context, page, friend, errors } = await playing({ viewport: { width, height } });
    const board = await box(page, 'svg.board');
    const panel = await box(page, '.side');
    const bottom = await box(page, '#player-bottom');
    assert.ok(panel.w >= 320 && panel.w <= 480, `the panel is ${panel.w} px wide`);
    assert.ok(panel.x >= board.right + 16, `the panel (from ${panel.x}) is beside the board (to ${board.right})`);
    assert.ok(panel.y < board.bottom, 'the panel starts beside the board, not under it');
    // The board takes what the panel leaves of the width, or the window's
    // height less the header and the player rows, whichever is less.
    const byWidth = board.w >= width - panel.w - 120;
    const byHeight = bottom.bottom >= height - 48;
    assert.ok(byWidth || byHeight, `the board is ${board.w}x${board.h} in ${width}x${height}, the panel ${panel.w} wide`);
    assert.ok(board.h >= 0.6 * height, `the board is ${board.h} px high in ${height}`);
    for (const sel of ['#player-top', 'svg.board', '#player-bottom', '#turn', '#resign']) await inFirstScreen(page, sel);
    await noSidewaysScroll(page);
    await shot(page, `layout-game-${width}`);
    assert.deepEqual(errors, []);
    await friend.close();
    await context.close();
  });
}

test('on a window wider than high the game page\'s board is as high as the window allows', async () => {
  const [width, height] = [2560, 1080];
  const { context, page, friend } = await playing({ viewport: { width, height } });
  const board = await box(page, 'svg.board');
  const panel = await box(page, '.side');
  const bottom = await box(page, '#player-bottom');
  assert.ok(bottom.bottom <= height && bottom.bottom >= height - 48, `the player row ends at ${bottom.bottom} of ${height}`);
  assert.ok(panel.w <= 480 && panel.x >= board.right + 16, `the panel is ${panel.w} wide at ${panel.x}`);
  // The board and the panel stand together in the middle, not the board
  // stretched across.
  const board0 = await box(page, '#player-top');
  assert.ok(Math.abs(board0.x - (width - panel.right)) <= 40, `left margin ${board0.x}, right ${width - panel.right}`);
  await friend.close();
  await context.close();
});

test('on a 390x844 phone the creator sees the whole link, Copy and "Waiting for your friend…" without scrolling', async () => {
  const context = await site.browser.newContext(PHONE);
  const { page, errors } = await site.watch(context);
  await page.goto(site.server.url);
  await page.click('#start');
  await page.waitForSelector('#qr path');
  // The button was low on the page: scrolling it into view to press it
  // is the person's doing, and the invitation starts at the top.
  await page.evaluate(() => window.scrollTo(0, 0));
  await waitText(page, '#waiting', /^Waiting for your friend…$/);
  const link = await page.inputValue('#invite-link');
  assert.match(link, /\/g\/[A-Za-z0-9]+\?invite=[A-Za-z0-9]+&lang=en$/);
  const fits = await page.$eval('#invite-link', (f) => ({
    height: [f.scrollHeight, f.clientHeight], width: [f.scrollWidth, f.clientWidth],
  }));
  assert.ok(fits.height[0] <= fits.height[1] + 1, `the link's box shows all its lines: ${fits.height}`);
  assert.ok(fits.width[0] <= fits.width[1], `and all of each line: ${fits.width}`);
  for (const sel of ['#invite-heading', '#invite-link', '#copy', '#waiting']) await inFirstScreen(page, sel);
  await noSidewaysScroll(page);
  await shot(page, 'layout-invite-390');

  // The board the creator may open meanwhile says the same.
  await page.click('#to-board');
  await waitText(page, '#waiting-friend', /^Waiting for your friend to join$/);
  // The link comes with the game's first state.
  await page.waitForFunction((want) => document.getElementById('invite-link').value === want, link, { timeout: 10_000 });
  await page.waitForSelector('#invite:not([hidden]) #qr path');
  for (const sel of ['svg.board', '#waiting-friend', '#invite-link', '#copy']) await inFirstScreen(page, sel);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const lang of LANGS) {
  test(`on a 390x844 phone in ${lang} the front page's choice and its button are in the first screen`, async () => {
    const text = (key) => CATALOGS[lang][key];
    const context = await site.browser.newContext(PHONE);
    const { page, errors } = await site.watch(context);
    await page.goto(`${site.server.url}/?lang=${lang}`);
    await page.waitForSelector('.picture svg.board');
    await page.check('input[name=opponent][value=friend]');
    for (const sel of ['h1', '.opponents', '#start-form legend', '#start-form .choices', '#start']) await inFirstScreen(page, sel);
    await audit(page, `front page, a friend, ${lang}, 390x844`);
    await shot(page, `layout-home-friend-390-${lang}`);

    await page.check('input[name=opponent][value=computer]');
    await page.waitForSelector('#computer-form:not([hidden])');
    assert.equal(await page.locator('#computer-form fieldset').first().locator('input[type=radio][name=level]').count(), 6);
    const numbers = await page.$$eval('.level-number', (els) => els.map((e) => e.textContent.trim()));
    assert.deepEqual(numbers, ['1', '2', '3', '4', '5', '6']);
    const row = await Promise.all(numbers.map((n, i) => box(page, `.level:nth-child(${i + 1}) .level-number`)));
    assert.ok(row.every((b) => b.y === row[0].y && b.h >= 44), `one row of buttons: ${JSON.stringify(row)}`);
    for (let level = 1; level <= 6; level++) {
      // Chosen by a tap on its number, then shown by name and line.
      await page.tap(`input[name=level][value="${level}"]`);
      assert.equal(await page.isChecked(`input[name=level][value="${level}"]`), true);
      const shown = await page.$$eval('.level-name, .level .level-line', (els) => els
        .filter((e) => getComputedStyle(e).opacity !== '0').map((e) => e.textContent.trim()));
      assert.deepEqual(shown, [text(`level.${level}`), text(`levelLine.${level}`)]);
      for (const sel of ['.levels', '#computer-form .choices', '#play-computer']) await inFirstScreen(page, sel);
      // The radio button keeps the whole name a screen reader says.
      const { name } = await accessible(page, `input[name=level][value="${level}"]`);
      assert.equal(name, `${level} ${text(`level.${level}`)} ${text(`levelLine.${level}`)}`);
    }
    await audit(page, `front page, the computer, ${lang}, 390x844`);
    await shot(page, `layout-home-computer-390-${lang}`);
    // The levels are one radio group: the arrow keys move the choice.
    await page.focus('input[name=level][value="6"]');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.isChecked('input[name=level][value="5"]'), true);
    await noSidewaysScroll(page);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the game page\'s board takes the width of a phone', async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 360, height: 740 }]) {
    const { context, page, friend } = await playing({ ...PHONE, viewport });
    const board = await box(page, 'svg.board');
    assert.ok(board.x <= 8 && board.right >= viewport.width - 8, `the board spans ${board.x}..${board.right} of ${viewport.width}`);
    await inFirstScreen(page, 'svg.board');
    await noSidewaysScroll(page);
    await friend.close();
    await context.close();
  }
});

test('no page scrolls sideways at 360 px', async () => {
  const created = await createGame(site.server.url, { first: 'me' });
  const { context, page, errors } = await site.phone();
  const pages = [
    ['front page', '/', '.picture svg.board'],
    ['rules', '/rules', 'svg.board'],
    ['which rules', '/which-rules', 'h1'],
    ['friend\'s invitation', local(created.invite_link).slice(site.server.url.length), '#join'],
    ['board waiting for the friend', local(created.seat_link).slice(site.server.url.length), '#waiting-friend:not([hidden])'],
    ['unknown game', '/g/AAAAAAAAAA', 'h1'],
    ['missing page', '/nowhere', 'h1'],
  ];
  for (const [name, path, ready] of pages) {
    await page.goto(site.server.url + path);
    await page.waitForSelector(ready);
    await noSidewaysScroll(page).catch((e) => { throw new Error(`${name}: ${e.message}`); });
  }
  await page.goto(site.server.url);
  await page.click('text=Play the computer');
  await page.waitForSelector('#computer-form:not([hidden])');
  await noSidewaysScroll(page);
  await page.click('text=Play a friend');
  await page.click('#start');
  await page.waitForSelector('#qr path');
  await noSidewaysScroll(page);
  // The two error pages come with their status, which Chromium logs.
  assert.deepEqual(errors.filter((e) => !/status of 404/.test(e)), []);
  assert.equal(errors.length, 2, errors.join('\n'));
  await context.close();
  const game = await playing(PHONE);
  await noSidewaysScroll(game.page);
  await game.friend.close();
  await game.context.close();
});

// Reads, in the page, the font size of every element that shows text and
// the sizes of the type scale's steps, in pixels.
function textSizes() {
  const steps = {};
  const probe = document.createElement('span');
  document.body.append(probe);
  for (const step of ['sm', 'base', 'lg', 'xl', '2xl']) {
    probe.style.fontSize = `var(--text-${step})`;
    steps[step] = parseFloat(getComputedStyle(probe).fontSize);
  }
  probe.remove();
  const off = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg') || !el.checkVisibility()) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())
      || ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON'].includes(el.tagName);
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize);
    if (!own || size === 0 || el.getBoundingClientRect().width <= 1) continue;
    if (!Object.values(steps).some((s) => Math.abs(s - size) < 0.05)) {
      off.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className}: ${size}px`);
    }
  }
  return { steps, off, family: getComputedStyle(document.body).fontFamily };
}

test('every text takes its size from the type scale and its face from the system, with no font file loaded', async () => {
  const created = await createGame(site.server.url, { first: 'me' });
  for (const options of [{ viewport: { width: 1280, height: 800 } }, PHONE, { viewport: { width: 1920, height: 1080 } }]) {
    const context = await site.browser.newContext(options);
    const { page } = await site.watch(context);
    const fonts = [];
    page.on('request', (r) => { if (r.resourceType() === 'font') fonts.push(r.url()); });
    for (const [path, ready] of [['/', '.picture svg.board'], ['/rules', 'svg.board'], ['/which-rules', 'h1'],
      [local(created.invite_link).slice(site.server.url.length), '#join'],
      [local(created.seat_link).slice(site.server.url.length), '#waiting-friend:not([hidden])']]) {
      await page.goto(site.server.url + path);
      await page.waitForSelector(ready);
      const { steps, off, family } = await page.evaluate(textSizes);
      assert.deepEqual(off, [], `${path} at ${options.viewport.width} px: sizes off the scale ${JSON.stringify(steps)}`);
      assert.ok(steps.sm < steps.base && steps.base < steps.lg && steps.lg < steps.xl && steps.xl < steps['2xl'], JSON.stringify(steps));
      assert.match(family, /^"Segoe UI Variable Text", system-ui, -apple-system/, path);
    }
    assert.equal(await page.evaluate(() => document.fonts.size), 0, 'no web font is declared');
    assert.deepEqual(fonts, [], 'no font file is fetched');
    await context.close();
  }
});
