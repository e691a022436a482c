import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeQr, qrPath, MAX_VERSION } from '../../js/qr.js';
import { reedSolomon, formatBits, readCodewords, deinterleave, penalty } from './qr-reader.js';
import { MATRICES } from './qr-fixtures.js';

const show = (modules) => modules.map((row) => row.map((d) => (d ? '#' : '.')).join(''));

test('Reed-Solomon gives the codewords of the standard\'s worked example (1-M)', () => {
  const data = [0x10, 0x20, 0x0c, 0x56, 0x61, 0x80, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11];
  assert.deepEqual(reedSolomon(data, 10), [0xa5, 0x24, 0xd4, 0xc1, 0xed, 0x36, 0xc7, 0x87, 0x2c, 0x55]);
});

test('format bits for level M match the table of the standard', () => {
  const table = [
    '101010000010010', '101000100100101', '101111001111100', '101101101001011',
    '100010111111001', '100000011001110', '100111110010111', '100101010100000',
  ];
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((m) => formatBits(m).toString(2).padStart(15, '0')), table);
});

test('the smallest version that holds the bytes is chosen', () => {
  const versionFor = (length) => encodeQr('x'.repeat(length)).version;
  assert.equal(versionFor(1), 1);
  assert.equal(versionFor(14), 1);
  assert.equal(versionFor(15), 2);
  assert.equal(versionFor(26), 2);
  assert.equal(versionFor(27), 3);
  assert.equal(versionFor(62), 4);
  assert.equal(versionFor(84), 5);
  assert.equal(versionFor(106), 6);
  assert.equal(MAX_VERSION, 6);
  assert.throws(() => encodeQr('x'.repeat(107)), RangeError);
});

test('data codewords carry mode, count, bytes, terminator and padding', () => {
  const { modules, mask } = encodeQr('a');
  const all = readCodewords(modules, mask);
  assert.equal(all.length, 26);
  const cw = all.slice(0, 16);
  // 0100 00000001 01100001 0000 -> 0x40 0x16 0x10, then EC 11 EC 11 ...
  assert.deepEqual(cw.slice(0, 5), [0x40, 0x16, 0x10, 0xec, 0x11]);
  assert.deepEqual(cw.slice(5), [0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec]);
  assert.deepEqual(all.slice(16), reedSolomon(cw, 10));
});

test('blocks are interleaved column by column (4-M has two blocks)', () => {
  const text = 'https://fanorona.example/g/Ab3dE9?invite=0123456789abcdefghijk';
  assert.equal(text.length, 62);
  const { version, modules, mask } = encodeQr(text);
  assert.equal(version, 4);
  const all = readCodewords(modules, mask);
  assert.equal(all.length, 100);
  const blocks = deinterleave(all, 4);
  assert.deepEqual(blocks.map((b) => [b.data.length, b.ec.length]), [[32, 18], [32, 18]]);
  // Mode 0100, count 62, the bytes, the terminator: exactly 64 codewords.
  const data = [...blocks[0].data, ...blocks[1].data];
  const bits = data.map((b) => b.toString(2).padStart(8, '0')).join('');
  assert.equal(bits.slice(0, 12), '0100' + (62).toString(2).padStart(8, '0'));
  const bytes = Array.from({ length: 62 }, (_, i) => parseInt(bits.slice(12 + 8 * i, 20 + 8 * i), 2));
  assert.equal(String.fromCharCode(...bytes), text);
  assert.equal(bits.slice(12 + 8 * 62), '0000');
  for (const b of blocks) assert.deepEqual(b.ec, reedSolomon(b.data, 18));
});

for (const fx of MATRICES) {
  test(`"${fx.text.slice(0, 24)}" encodes to the known matrix (version ${fx.version}, mask ${fx.mask})`, () => {
    const q = encodeQr(fx.text, fx.chosen ? {} : { mask: fx.mask });
    assert.equal(q.version, fx.version);
    assert.equal(q.mask, fx.mask);
    assert.equal(q.size, 17 + 4 * fx.version);
    assert.deepEqual(show(q.modules), fx.rows);
  });
}

test('every matrix has finder, timing and dark modules and two equal format copies', () => {
  for (const text of ['a', 'https://fanorona.example/g/Ab3dE9?invite=x', 'y'.repeat(100)]) {
    const { modules: m, size, mask } = encodeQr(text);
    for (const [r0, c0] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
      assert.deepEqual(m[r0].slice(c0, c0 + 7), [true, true, true, true, true, true, true]);
      assert.deepEqual(m[r0 + 2].slice(c0, c0 + 7), [true, false, true, true, true, false, true]);
    }
    for (let i = 8; i < size - 8; i++) {
      assert.equal(m[6][i], i % 2 === 0);
      assert.equal(m[i][6], i % 2 === 0);
    }
    assert.equal(m[size - 8][8], true, 'the dark module');
    const first = [0, 1, 2, 3, 4, 5, 7, 8].map((r) => m[r][8]).concat([7, 5, 4, 3, 2, 1, 0].map((c) => m[8][c]));
    const second = Array.from({ length: 8 }, (_, i) => m[8][size - 1 - i])
      .concat(Array.from({ length: 7 }, (_, i) => m[size - 7 + i][8]));
    assert.deepEqual(first, second);
    const read = first.reduce((acc, b, i) => acc | (b ? 1 << i : 0), 0);
    assert.equal(read, formatBits(mask));
  }
});

test('the best mask has the lowest penalty of the eight', () => {
  const text = 'https://fanorona.example/g/Ab3dE9';
  const best = encodeQr(text);
  for (let mask = 0; mask < 8; mask++) {
    assert.ok(penalty(encodeQr(text, { mask }).modules) >= penalty(best.modules));
  }
});

test('the SVG path draws one square per dark module inside a quiet zone', () => {
  const { modules } = encodeQr('a');
  const { d, size } = qrPath(modules);
  assert.equal(size, 29);
  const dark = modules.flat().filter(Boolean).length;
  assert.equal(d.split('M').length - 1, dark);
  assert.ok(d.startsWith('M4 4h1v1h-1z'));
});
