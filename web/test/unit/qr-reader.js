// Reads a QR code back, to check the encoder's output against ISO/IEC
// 18004 (level M, versions 1 to 6): the error correction codewords
// (Reed-Solomon over GF(256)), the format bits, the placement of the
// codewords in the matrix and the masks' penalty score, each written here
// from the standard, apart from the encoder.

/** Per version at level M: [error correction codewords per block, data codewords per block, blocks]. */
export const LEVEL_M = [null, [10, 16, 1], [16, 28, 1], [26, 44, 1], [18, 32, 2], [24, 43, 2], [16, 27, 4]];

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

// ---- format and masks --------------------------------------------------------

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

// ---- the codewords in the matrix ---------------------------------------------

/**
 * Which modules of a version's matrix are function patterns (finders and
 * their separators, timing, the alignment pattern, the format areas and
 * the dark module), which hold no data.
 * @param {number} version
 * @returns {boolean[][]}
 */
function functionModules(version) {
  const size = 17 + 4 * version;
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const area = (top, left, bottom, right) => {
    for (let r = Math.max(top, 0); r <= Math.min(bottom, size - 1); r++) {
      for (let c = Math.max(left, 0); c <= Math.min(right, size - 1); c++) fixed[r][c] = true;
    }
  };
  area(0, 0, 8, 8);
  area(0, size - 8, 8, size - 1);
  area(size - 8, 0, size - 1, 8);
  area(6, 0, 6, size - 1);
  area(0, 6, size - 1, 6);
  if (version >= 2) {
    const at = 4 * version + 10;
    area(at - 2, at - 2, at + 2, at + 2);
  }
  return fixed;
}

/**
 * All codewords of a matrix in the order they are placed, the mask
 * undone: the data codewords interleaved across the blocks, then the
 * error correction codewords interleaved the same way.
 * @param {boolean[][]} modules
 * @param {number} mask
 * @returns {number[]}
 */
export function readCodewords(modules, mask) {
  const size = modules.length;
  const version = (size - 17) / 4;
  const fixed = functionModules(version);
  const bits = [];
  let upward = true;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      const r = upward ? size - 1 - step : step;
      for (const c of [right, right - 1]) {
        if (!fixed[r][c]) bits.push(modules[r][c] !== MASKS[mask](r, c));
      }
    }
    upward = !upward;
  }
  const [ecLen, perBlock, blocks] = LEVEL_M[version];
  const count = (ecLen + perBlock) * blocks;
  const out = [];
  for (let i = 0; i < count; i++) {
    out.push(bits.slice(8 * i, 8 * i + 8).reduce((a, b) => (a << 1) | (b ? 1 : 0), 0));
  }
  return out;
}

/**
 * The blocks of a matrix's codewords (see `readCodewords`), each as its
 * data and its error correction codewords.
 * @param {number[]} codewords
 * @param {number} version
 * @returns {{data: number[], ec: number[]}[]}
 */
export function deinterleave(codewords, version) {
  const [ecLen, perBlock, blocks] = LEVEL_M[version];
  const out = Array.from({ length: blocks }, () => ({ data: [], ec: [] }));
  codewords.forEach((cw, i) => {
    if (i < perBlock * blocks) out[i % blocks].data.push(cw);
    else out[(i - perBlock * blocks) % blocks].ec.push(cw);
  });
  if (out.some((b) => b.ec.length !== ecLen)) throw new Error('the codewords do not fill the blocks');
  return out;
}

// ---- penalty -------------------------------------------------------------------

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
