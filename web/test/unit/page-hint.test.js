import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { searchText, hintFrame } from '../../js/page-hint.js';
import { readState, readServerMessage } from '../../js/protocol.js';
import { START_POSITION } from '../../js/position.js';

// The engine's file as the pages load it, instantiated here: its steps
// answer as GET /api/steps does, a turn in progress included.
const wasm = await WebAssembly.instantiate(readFileSync(new URL('../../engine/fanorona.wasm', import.meta.url)),
  { env: { fnr_line: () => {} } });
const x = wasm.instance.exports;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function call(command, input, ...args) {
  const bytes = encoder.encode(input);
  const at = x.fnr_input(bytes.length);
  new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
  const len = x[command](...args);
  return decoder.decode(new Uint8Array(x.memory.buffer, x.fnr_output(), len));
}

const SUFFIX = { approach: 'A', withdrawal: 'W', paika: '' };

/** A small seeded generator, so that a failure can be played again. */
function random(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

test('in a turn in progress the search is asked for the turn\'s start and the turn so far, which lead back there', () => {
  const pick = random(7);
  let start = START_POSITION;
  let notation = '';
  let chains = 0;
  for (let i = 0; i < 3000 && chains < 150; i++) {
    const answer = JSON.parse(call('fnr_steps', notation ? `${start}\n${notation}` : start));
    if (answer.code || answer.legal_steps.length === 0) {
      start = START_POSITION;
      notation = '';
      continue;
    }
    if (answer.turn && answer.can_end_turn && pick(4) === 0) {
      // Stopped here: the next side's turn.
      start = JSON.parse(call('fnr_play', `${start}\n${notation}`)).position;
      notation = '';
      continue;
    }
    const step = answer.legal_steps[pick(answer.legal_steps.length)];
    const landing = `${step.to}${SUFFIX[step.kind]}`;
    notation = notation ? `${notation}-${landing}` : `${step.from}-${landing}`;
    const after = JSON.parse(call('fnr_steps', `${start}\n${notation}`));
    if (!after.turn) {
      start = after.position;
      notation = '';
      continue;
    }
    // The game page's state in the turn: the board as it is now.
    const game = readState({ position: after.position, side_to_move: after.side_to_move, turn: after.turn });
    assert.ok(game.chain, after.position);
    const text = searchText(game);
    const [board, so_far] = text.split('\n');
    assert.equal(board.split(' ')[0], start.split(' ')[0], `the turn's start, for ${notation}`);
    assert.equal(so_far, notation);
    assert.equal(call('fnr_steps', text), JSON.stringify(after), notation);
    chains++;
  }
  assert.ok(chains >= 150, `${chains} turns in progress`);
  // Without a turn in progress, the position as it is.
  assert.equal(searchText(readState({ position: START_POSITION })), START_POSITION);
  assert.equal(searchText(readState({ position: 'nonsense' })), null);
});

test('the search of a turn in progress answers its rest, which the hint frame tells as the server does', () => {
  const answer = JSON.parse(call('fnr_steps', `${START_POSITION}\nd3-e3A`));
  assert.equal(answer.turn, null, 'the opening capture d3-e3A cannot go on');
  // A turn that can: found along a seeded game.
  const pick = random(11);
  let start = START_POSITION;
  let found = null;
  for (let i = 0; i < 400 && !found; i++) {
    const steps = JSON.parse(call('fnr_steps', start)).legal_steps;
    for (const s of steps) {
      const notation = `${s.from}-${s.to}${SUFFIX[s.kind]}`;
      const after = JSON.parse(call('fnr_steps', `${start}\n${notation}`));
      if (after.turn) found = { notation, after };
    }
    const s = steps[pick(steps.length)];
    start = JSON.parse(call('fnr_play', `${start}\n${s.from}-${s.to}${SUFFIX[s.kind]}`)).position;
  }
  assert.ok(found, 'a capture that may go on');
  const game = readState({ position: found.after.position, side_to_move: found.after.side_to_move, turn: found.after.turn });
  const out = call('fnr_analyse', searchText(game), 20000, 0);
  const best = /bestturn (\S+)$/.exec(out)[1];
  assert.ok(best.startsWith(game.chain.stone), `${best} goes on from ${game.chain.stone}`);
  const frame = readServerMessage(hintFrame(best, true));
  assert.equal(frame.type, 'hint');
  if (best === game.chain.stone) {
    assert.deepEqual(frame.hint, { from: null, to: null, kind: null, turn: null, endTurn: true });
  } else {
    const [, to] = best.split('-');
    const step = found.after.legal_steps.find((s) => s.from === frame.hint.from && s.to === frame.hint.to && s.kind === frame.hint.kind);
    assert.ok(step, `${best}: ${JSON.stringify(frame.hint)} is a legal step`);
    assert.equal(frame.hint.to, to.slice(0, 2));
  }
});

test('a best turn becomes the server\'s hint frame', () => {
  const read = (best, inTurn) => readServerMessage(hintFrame(best, inTurn)).hint;
  assert.deepEqual(read('f2-e3A', false), { from: 'f2', to: 'e3', kind: 'approach', turn: 'f2-e3A', endTurn: false });
  assert.deepEqual(read('d5-d4W-c5A', false), { from: 'd5', to: 'd4', kind: 'withdrawal', turn: 'd5-d4W-c5A', endTurn: false });
  assert.deepEqual(read('e2-e3', false), { from: 'e2', to: 'e3', kind: 'paika', turn: 'e2-e3', endTurn: false });
  assert.deepEqual(read('e3', true), { from: null, to: null, kind: null, turn: null, endTurn: true });
  // No turn, or a stop outside a turn in progress: nothing to hint, and
  // the page asks the server.
  assert.throws(() => hintFrame(null, false));
  assert.throws(() => hintFrame('e3', false));
});
