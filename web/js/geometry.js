// The board's geometry: the 45 points, their names, which lines join them,
// and where each point is drawn. Pure data and functions; no DOM.

/** Number of files (columns a..i). */
export const FILES = 9;
/** Number of ranks (rows 1..5). */
export const RANKS = 5;
/** Distance between two neighbouring points in SVG user units. */
export const SPACING = 100;
/** Space between the outer lines and the edge of the drawing. */
export const MARGIN = 50;
/** Width and height of the drawing in SVG user units. */
export const WIDTH = MARGIN * 2 + SPACING * (FILES - 1);
export const HEIGHT = MARGIN * 2 + SPACING * (RANKS - 1);

const FILE_NAMES = 'abcdefghi';

/** Colours of a side, as string values. */
export const Color = Object.freeze({ White: 'white', Black: 'black' });

/**
 * The eight directions as [file step, rank step], keyed by compass name.
 * North is towards rank 5.
 */
export const DIRECTIONS = Object.freeze({
  n: [0, 1], ne: [1, 1], e: [1, 0], se: [1, -1],
  s: [0, -1], sw: [-1, -1], w: [-1, 0], nw: [-1, 1],
});

/**
 * A point as a 0-based file and rank.
 * @typedef {{file: number, rank: number}} Coord
 */

/**
 * Parses a square name such as "e3".
 * @param {string} name
 * @returns {Coord | null} null when the name is not a square of the board
 */
export function parseSquare(name) {
  if (typeof name !== 'string' || name.length !== 2) return null;
  const file = FILE_NAMES.indexOf(name[0]);
  const rank = name.charCodeAt(1) - 49;
  if (file < 0 || rank < 0 || rank >= RANKS) return null;
  return { file, rank };
}

/**
 * The name of the point at a 0-based file and rank, or null off the board.
 * @param {number} file
 * @param {number} rank
 * @returns {string | null}
 */
export function squareName(file, rank) {
  if (!onBoard(file, rank)) return null;
  return FILE_NAMES[file] + String(rank + 1);
}

/**
 * Whether a 0-based file and rank lie on the board.
 * @param {number} file
 * @param {number} rank
 */
export function onBoard(file, rank) {
  return Number.isInteger(file) && Number.isInteger(rank) &&
    file >= 0 && file < FILES && rank >= 0 && rank < RANKS;
}

/**
 * Index of a square in row-major order from a1 (0) to i5 (44).
 * @param {string} name
 * @returns {number} -1 when the name is not a square
 */
export function squareIndex(name) {
  const c = parseSquare(name);
  return c ? c.rank * FILES + c.file : -1;
}

/** All 45 square names, a1, b1, ..., i1, a2, ..., i5. */
export const SQUARES = Object.freeze(
  Array.from({ length: FILES * RANKS }, (_, i) => squareName(i % FILES, Math.floor(i / FILES))),
);

/**
 * Whether a point is strong: diagonal lines pass through it (file + rank even).
 * @param {string} name
 */
export function isStrong(name) {
  const c = parseSquare(name);
  return c !== null && (c.file + c.rank) % 2 === 0;
}

/**
 * The directions along which lines leave a point: all eight from a strong
 * point, the four orthogonal ones from a weak point, minus those leaving
 * the board.
 * @param {string} name
 * @returns {string[]} direction keys of DIRECTIONS
 */
export function directionsFrom(name) {
  const c = parseSquare(name);
  if (!c) return [];
  const strong = (c.file + c.rank) % 2 === 0;
  return Object.keys(DIRECTIONS).filter((d) => {
    const [df, dr] = DIRECTIONS[d];
    if (df !== 0 && dr !== 0 && !strong) return false;
    return onBoard(c.file + df, c.rank + dr);
  });
}

/**
 * The neighbour of a point in a direction, or null when no line leads there.
 * @param {string} name
 * @param {string} dir key of DIRECTIONS
 * @returns {string | null}
 */
export function neighbour(name, dir) {
  if (!directionsFrom(name).includes(dir)) return null;
  const c = parseSquare(name);
  const [df, dr] = DIRECTIONS[dir];
  return squareName(c.file + df, c.rank + dr);
}

/**
 * The direction of a single step between two adjacent points along a
 * line, or null when no line joins them.
 * @param {string} from
 * @param {string} to
 * @returns {string | null}
 */
export function directionBetween(from, to) {
  const a = parseSquare(from);
  const b = parseSquare(to);
  if (!a || !b) return null;
  const df = b.file - a.file;
  const dr = b.rank - a.rank;
  const dir = Object.keys(DIRECTIONS).find(
    (d) => DIRECTIONS[d][0] === df && DIRECTIONS[d][1] === dr,
  );
  return dir && directionsFrom(from).includes(dir) ? dir : null;
}

/** The opposite of a direction key. */
export function opposite(dir) {
  const [df, dr] = DIRECTIONS[dir];
  return Object.keys(DIRECTIONS).find((d) => DIRECTIONS[d][0] === -df && DIRECTIONS[d][1] === -dr);
}

/**
 * Every line segment between two neighbouring points, each once, as pairs
 * of square names. 8 rows x 5 + 4 x 9 orthogonal and 32 diagonal ones.
 * @returns {Array<[string, string]>}
 */
export function segments() {
  const out = [];
  for (const sq of SQUARES) {
    for (const d of ['e', 'n', 'ne', 'nw']) {
      const to = neighbour(sq, d);
      if (to) out.push([sq, to]);
    }
  }
  return out;
}

/**
 * The SVG position of a point's centre.
 * @param {string} name
 * @param {'white'|'black'} bottom the colour whose home rows are at the bottom
 * @returns {{x: number, y: number}}
 */
export function toSvg(name, bottom = Color.White) {
  const c = parseSquare(name);
  if (!c) throw new RangeError(`not a square: ${name}`);
  const col = bottom === Color.Black ? FILES - 1 - c.file : c.file;
  const row = bottom === Color.Black ? c.rank : RANKS - 1 - c.rank;
  return { x: MARGIN + col * SPACING, y: MARGIN + row * SPACING };
}

/**
 * The point nearest to an SVG position, when it lies within half a
 * spacing of it in both axes; null otherwise.
 * @param {number} x
 * @param {number} y
 * @param {'white'|'black'} bottom
 * @returns {string | null}
 */
export function fromSvg(x, y, bottom = Color.White) {
  const col = Math.round((x - MARGIN) / SPACING);
  const row = Math.round((y - MARGIN) / SPACING);
  if (Math.abs(x - (MARGIN + col * SPACING)) > SPACING / 2) return null;
  if (Math.abs(y - (MARGIN + row * SPACING)) > SPACING / 2) return null;
  if (col < 0 || col >= FILES || row < 0 || row >= RANKS) return null;
  return bottom === Color.Black
    ? squareName(FILES - 1 - col, row)
    : squareName(col, RANKS - 1 - row);
}

/**
 * The square one step away on screen, for the keyboard; the same at the edge.
 * @param {string} name
 * @param {'up'|'down'|'left'|'right'} key
 * @param {'white'|'black'} bottom
 * @returns {string}
 */
export function screenNeighbour(name, key, bottom = Color.White) {
  const { x, y } = toSvg(name, bottom);
  const delta = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[key];
  if (!delta) return name;
  return fromSvg(x + delta[0] * SPACING, y + delta[1] * SPACING, bottom) || name;
}

/**
 * Squares by their distance in steps from a point, nearest first: the
 * order in which the stones of a capture go.
 * @param {string[]} squares
 * @param {string} from
 * @returns {string[]}
 */
export function nearestFirst(squares, from) {
  const o = parseSquare(from);
  const far = (sq) => {
    const c = parseSquare(sq);
    return Math.max(Math.abs(c.file - o.file), Math.abs(c.rank - o.rank));
  };
  return [...squares].sort((a, b) => far(a) - far(b));
}
