import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timesAt, clockText, isLow, bindClocks } from '../../js/clock.js';

const t = (key, params) => (key === 'clock.dh' ? `${params.d} d ${params.h} h`
  : params ? `${key}:${JSON.stringify(params)}` : key);
const real = { real: true, minutes: 5, increment: 3, days: null, white: 65_000, black: 300_000, running: 'white' };
const corr = { real: false, minutes: null, increment: null, days: 3, white: 3 * 86_400_000, black: 1, running: 'black' };

test('only the running clock counts down, from when it arrived, and never below zero', () => {
  assert.deepEqual(timesAt(real, 1_000, 1_000), { white: 65_000, black: 300_000 });
  assert.deepEqual(timesAt(real, 1_000, 6_500), { white: 59_500, black: 300_000 });
  assert.deepEqual(timesAt(real, 1_000, 999_999), { white: 0, black: 300_000 });
  assert.deepEqual(timesAt({ ...real, running: null }, 0, 50_000), { white: 65_000, black: 300_000 });
});

test('a clock reads as minutes and seconds, tenths under ten seconds, days by correspondence', () => {
  assert.equal(clockText(300_000, real, t), '5:00');
  assert.equal(clockText(65_999, real, t), '1:05');
  assert.equal(clockText(10_000, real, t), '0:10');
  assert.equal(clockText(9_350, real, t), '0:09.3');
  assert.equal(clockText(0, real, t), '0:00.0');
  assert.equal(clockText(3_723_000, real, t), '1:02:03');
  assert.equal(clockText(3 * 86_400_000, corr, t), '3 d 0 h');
  assert.equal(clockText(86_400_000 + 5 * 3_600_000 + 59_000, corr, t), '1 d 5 h');
  assert.equal(clockText(86_399_000, corr, t), '23:59:59');
});

test('a clock is low under twenty seconds in real time, two hours by correspondence', () => {
  assert.equal(isLow(20_000, real), true);
  assert.equal(isLow(20_001, real), false);
  assert.equal(isLow(2 * 3_600_000, corr), true);
  assert.equal(isLow(2 * 3_600_000 + 1, corr), false);
});

function span() {
  const classes = new Set();
  const attrs = {};
  return {
    hidden: true,
    textContent: '',
    classList: { toggle: (c, on) => (on ? classes.add(c) : classes.delete(c)), contains: (c) => classes.has(c) },
    setAttribute: (k, v) => { attrs[k] = v; },
    attrs,
  };
}

test('the clocks follow the board, say low time once and zero once', (ctx) => {
  const spans = { top: span(), bottom: span() };
  let now = 0;
  const said = { low: 0, zero: [] };
  const clocks = bindClocks(spans, {
    t, now: () => now, onLow: () => { said.low += 1; }, onZero: (c) => said.zero.push(c),
  });
  // A running clock ticks: stopped at the end, whatever happens.
  ctx.after(() => clocks.show(null, 0, 'white', null));
  clocks.show(null, 0, 'white', 'white');
  assert.equal(spans.top.hidden, true);
  const game = { clock: { ...real, white: 21_000 } };
  clocks.show(game, 0, 'white', 'white');
  assert.equal(spans.bottom.hidden, false);
  assert.equal(spans.bottom.textContent, '0:21');
  assert.equal(spans.top.textContent, '5:00');
  assert.equal(spans.bottom.classList.contains('running'), true);
  assert.equal(spans.bottom.attrs['aria-label'], 'clock.of:{"color":"color.white"}');
  assert.equal(said.low, 0);
  now = 2_000;
  clocks.show(game, 0, 'white', 'white');
  assert.equal(spans.bottom.classList.contains('low'), true);
  clocks.show(game, 0, 'white', 'white');
  assert.equal(said.low, 1, 'said once');
  now = 30_000;
  clocks.show(game, 0, 'black', 'white');
  assert.equal(spans.top.textContent, '0:00.0', 'flipped: White is on top');
  clocks.show(game, 0, 'black', 'white');
  assert.deepEqual(said.zero, ['white']);
  clocks.show({ clock: { ...real, running: null } }, 0, 'white', 'white');
  assert.equal(spans.bottom.classList.contains('running'), false);
});
