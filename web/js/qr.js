// A small QR code encoder (ISO/IEC 18004): byte mode, error correction
// level M, versions 1 to 6 (up to 106 bytes, plenty for an invitation
// link). No dependencies; the page draws the result as one SVG path.

/** Per version at level M: [error correction codewords per block, data codewords per block, blocks]. */
const LEVEL_M = [null, [10, 16, 1], [16, 28, 1], [26, 44, 1], [18, 32, 2], [24, 43, 2], [16, 27, 4]];

/** The largest version this encoder makes. */
export const MAX_VERSION = LEVEL_M.length - 1;

// ---- Reed-Solomon over GF(256) with the polynomial x^8+x^4+x^3+x^2+1 ----

const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
(() => {
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
})();

function mul(a, b) {
  return a && b ? EXP[LOG[a] + LOG[b]] : 0;
}

/**
 * The generator polynomial of degree n, highest power first, leading 1 omitted.
 * @param {number} n
 * @returns {number[]}
 */
function generator(n) {
  let g = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array(g.length + 1).fill(0);
    for (let j = 0; j < g.length; j++) {
      next[j] ^= g[j];
      next[j + 1] ^= mul(g[j], EXP[i]);
    }
    g = next;
  }
  return g.slice(1);
}

/**
 * The error correction codewords of a block of data codewords.
 * @param {number[]} data
 * @param {number} n number of error correction codewords
 * @returns {number[]}
 */
export function reedSolomon(data, n) {
  const g = generator(n);
  const rem = new Array(n).fill(0);
  for (const byte of data) {
    const factor = byte ^ rem.shift();
    rem.push(0);
    for (let i = 0; i < n; i++) rem[i] ^= mul(g[i], factor);
  }
  return rem;
}

// ---- data codewords ---------------------------------------------------------

/**
 * The smallest version that holds a number of bytes, or 0 when none does.
 * @param {number} length
 */
export function versionFor(length) {
  for (let v = 1; v <= MAX_VERSION; v++) {
    const [, perBlock, blocks] = LEVEL_M[v];
    if (4 + 8 + 8 * length <= perBlock * blocks * 8) return v;
  }
  return 0;
}

/**
 * The data codewords of a byte string at a version: mode, count, bytes,
 * terminator, padding.
 * @param {Uint8Array} bytes
 * @param {number} version
 * @returns {number[]}
 */
export function dataCodewords(bytes, version) {
  const [, perBlock, blocks] = LEVEL_M[version];
  const capacity = perBlock * blocks * 8;
  const bits = [];
  const put = (value, n) => {
    for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, 8);
  for (const b of bytes) put(b, 8);
  put(0, Math.min(4, capacity - bits.length));
  while (bits.length % 8) bits.push(0);
  const out = [];
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; out.length < capacity / 8; pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}

/**
 * All codewords in the order they are placed: data interleaved across the
 * blocks, then error correction interleaved the same way.
 * @param {number[]} data
 * @param {number} version
 * @returns {number[]}
 */
export function interleave(data, version) {
  const [ecLen, perBlock, blocks] = LEVEL_M[version];
  const dataBlocks = [];
  for (let b = 0; b < blocks; b++) dataBlocks.push(data.slice(b * perBlock, (b + 1) * perBlock));
  const ecBlocks = dataBlocks.map((d) => reedSolomon(d, ecLen));
  const out = [];
  for (let i = 0; i < perBlock; i++) for (const d of dataBlocks) out.push(d[i]);
  for (let i = 0; i < ecLen; i++) for (const e of ecBlocks) out.push(e[i]);
  return out;
}

// ---- the matrix -------------------------------------------------------------

/** The mask conditions: a module is flipped where the condition holds. */
export const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

/**
 * The 15 format bits for level M and a mask: 5 data bits, 10 BCH bits,
 * XORed with 101010000010010.
 * @param {number} mask
 */
export function formatBits(mask) {
  const data = (0b00 << 3) | mask;
  let rem = data << 10;
  for (let i = 14; i >= 10; i--) if ((rem >>> i) & 1) rem ^= 0x537 << (i - 10);
  return ((data << 10) | rem) ^ 0x5412;
}

function blankMatrix(version) {
  const size = 17 + 4 * version;
  const grid = Array.from({ length: size }, () => new Array(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (r, c, dark) => {
    grid[r][c] = dark;
    fixed[r][c] = true;
  };
  const finder = (top, left) => {
    for (let dr = -1; dr <= 7; dr++) {
      for (let dc = -1; dc <= 7; dc++) {
        const r = top + dr;
        const c = left + dc;
        if (r < 0 || c < 0 || r >= size || c >= size) continue;
        const ring = Math.max(Math.abs(dr - 3), Math.abs(dc - 3));
        set(r, c, ring !== 2 && ring !== 4);
      }
    }
  };
  finder(0, 0);
  finder(0, size - 7);
  finder(size - 7, 0);
  for (let i = 8; i < size - 8; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  if (version >= 2) {
    const at = 4 * version + 10;
    for (let dr = -2; dr <= 2; dr++) {
      for (let dc = -2; dc <= 2; dc++) set(at + dr, at + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
    }
  }
  // Reserve the format areas; they are written once the mask is known.
  for (let i = 0; i < 9; i++) {
    fixed[8][i] = fixed[i][8] = true;
  }
  for (let i = 0; i < 8; i++) {
    fixed[8][size - 1 - i] = fixed[size - 1 - i][8] = true;
  }
  set(size - 8, 8, true);
  return { size, grid, fixed };
}

function placeData(m, codewords) {
  const { size, grid, fixed } = m;
  const bits = [];
  for (const cw of codewords) for (let i = 7; i >= 0; i--) bits.push((cw >>> i) & 1);
  let k = 0;
  let upward = true;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      const r = upward ? size - 1 - step : step;
      for (const c of [right, right - 1]) {
        if (fixed[r][c]) continue;
        grid[r][c] = k < bits.length ? bits[k] === 1 : false;
        k++;
      }
    }
    upward = !upward;
  }
}

function writeFormat(m, mask) {
  const { size, grid } = m;
  const bits = formatBits(mask);
  const bit = (i) => ((bits >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i++) grid[i][8] = bit(i);
  grid[7][8] = bit(6);
  grid[8][8] = bit(7);
  grid[8][7] = bit(8);
  for (let i = 9; i < 15; i++) grid[8][14 - i] = bit(i);
  for (let i = 0; i < 8; i++) grid[8][size - 1 - i] = bit(i);
  for (let i = 8; i < 15; i++) grid[size - 15 + i][8] = bit(i);
}

function masked(m, mask) {
  const grid = m.grid.map((row, r) => row.map((dark, c) => (m.fixed[r][c] ? dark : dark !== MASKS[mask](r, c))));
  const out = { ...m, grid };
  writeFormat(out, mask);
  return out.grid;
}

/**
 * The penalty score of a masked matrix (the four rules of the standard).
 * @param {boolean[][]} grid
 * @returns {number}
 */
export function penalty(grid) {
  const size = grid.length;
  let score = 0;
  const lines = [];
  for (let i = 0; i < size; i++) {
    lines.push(grid[i]);
    lines.push(grid.map((row) => row[i]));
  }
  const finderLike = [true, false, true, true, true, false, true];
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= size; i++) {
      if (i < size && line[i] === line[i - 1]) {
        run++;
      } else {
        if (run >= 5) score += 3 + (run - 5);
        run = 1;
      }
    }
    for (let i = 0; i + 7 <= size; i++) {
      if (!finderLike.every((v, j) => line[i + j] === v)) continue;
      const lightBefore = [1, 2, 3, 4].every((d) => i - d < 0 || !line[i - d]);
      const lightAfter = [0, 1, 2, 3].every((d) => i + 7 + d >= size || !line[i + 7 + d]);
      if (lightBefore) score += 40;
      if (lightAfter) score += 40;
    }
  }
  let dark = 0;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (grid[r][c]) dark++;
      if (r + 1 < size && c + 1 < size) {
        const v = grid[r][c];
        if (grid[r][c + 1] === v && grid[r + 1][c] === v && grid[r + 1][c + 1] === v) score += 3;
      }
    }
  }
  score += 10 * Math.floor(Math.abs((dark * 100) / (size * size) - 50) / 5);
  return score;
}

/**
 * Encodes text (as UTF-8) into a QR code at level M.
 * @param {string} text
 * @param {{mask?: number}} [opts] a fixed mask instead of the best one
 * @returns {{version: number, mask: number, size: number, modules: boolean[][]}}
 * @throws {RangeError} when the text is too long for version 6
 */
export function encodeQr(text, opts = {}) {
  const bytes = new TextEncoder().encode(text);
  const version = versionFor(bytes.length);
  if (!version) throw new RangeError(`text too long for a QR code here: ${bytes.length} bytes`);
  const m = blankMatrix(version);
  placeData(m, interleave(dataCodewords(bytes, version), version));
  let best = null;
  const masks = opts.mask === undefined ? [0, 1, 2, 3, 4, 5, 6, 7] : [opts.mask];
  for (const mask of masks) {
    const grid = masked(m, mask);
    const score = masks.length > 1 ? penalty(grid) : 0;
    if (!best || score < best.score) best = { mask, grid, score };
  }
  return { version, mask: best.mask, size: m.size, modules: best.grid };
}

/**
 * The dark modules as one SVG path, one unit per module, with a quiet
 * zone of `margin` modules.
 * @param {boolean[][]} modules
 * @param {number} [margin]
 * @returns {{d: string, size: number}}
 */
export function qrPath(modules, margin = 4) {
  let d = '';
  modules.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (dark) d += `M${c + margin} ${r + margin}h1v1h-1z`;
    });
  });
  return { d, size: modules.length + 2 * margin };
}
