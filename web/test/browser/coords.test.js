// The game board's coordinates name the right line: each file letter is
// centred under its column and each row number beside its row, at a
// desktop's size and a phone's, with White and with Black at the bottom,
// large enough to read on a phone; the board so drawn has no
// accessibility violation. The rules page's boards are drawn the same way.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, phoneContext, createGame, waitText } from './harness.js';
import { audit } from './axe.js';

const site = useSite();

const SIZES = {
  desktop: () => site.browser.newContext({ viewport: { width: 1280, height: 800 } }),
  phone: () => phoneContext(site.browser),
};

// Each coordinate's centre and size on the screen, and the centre of the
// nearest point of its line: file letters against the points of the
// bottom row, row numbers against those of the left column.
function measure(bottom) {
  const centre = (node) => {
    const r = node.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  };
  const point = (sq) => centre(document.querySelector(`svg.board [data-sq="${sq}"] .hit`));
  return [...document.querySelectorAll('svg.board .coord')].map((text) => {
    const name = text.textContent;
    const sq = /\d/.test(name) ? `${bottom === 'white' ? 'a' : 'i'}${name}` : `${name}${bottom === 'white' ? 1 : 5}`;
    return {
      name,
      at: centre(text),
      line: point(sq),
      px: text.getScreenCTM().a * parseFloat(getComputedStyle(text).fontSize),
    };
  });
}

function check(labels, what) {
  assert.equal(labels.map((l) => l.name).join(''), 'abcdefghi12345', what);
  for (const { name, at, line, px } of labels) {
    const where = `${name} at ${JSON.stringify(at)}, its line at ${JSON.stringify(line)} (${what})`;
    assert.ok(px >= 12, `${name} is ${px.toFixed(1)} px high (${what})`);
    if (/\d/.test(name)) {
      assert.ok(Math.abs(at.y - line.y) <= 3, `row ${where}`);
      assert.ok(at.x < line.x && line.x - at.x < 60, `row number left of its row: ${where}`);
    } else {
      assert.ok(Math.abs(at.x - line.x) <= 3, `file ${where}`);
      assert.ok(at.y > line.y && at.y - line.y < 60, `file letter under its column: ${where}`);
    }
  }
}

for (const [size, context] of Object.entries(SIZES)) {
  test(`each coordinate is centred on its line, both ways up (${size})`, async () => {
    const game = await createGame(site.server.url, { first: 'me' });
    const { page, errors } = await site.open(game.seat_link, { context: await context() });
    await page.waitForSelector('svg.board .coord');
    await waitText(page, '#player-bottom .who', /White/);
    check(await page.evaluate(measure, 'white'), `${size}, White at the bottom`);
    await audit(page, `the board with its coordinates (${size})`);
    await page.click('#flip');
    await waitText(page, '#player-bottom .who', /Black/);
    check(await page.evaluate(measure, 'black'), `${size}, Black at the bottom`);
    await audit(page, `the board turned, with its coordinates (${size})`);

    // The rules page's boards are drawn alike.
    await page.goto(`${site.server.url}/rules`);
    await page.waitForSelector('#try-chain svg.board .coord');
    const rules = await page.evaluate(() => [...document.querySelectorAll('svg.board')].map((svg) => {
      const a = svg.querySelector('.coord').getBoundingClientRect();
      const a1 = svg.querySelector('[data-sq="a1"] .hit').getBoundingClientRect();
      return Math.abs(a.x + a.width / 2 - (a1.x + a1.width / 2));
    }));
    assert.ok(rules.length > 3 && rules.every((d) => d <= 3), `the rules page's letter a: ${rules}`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
