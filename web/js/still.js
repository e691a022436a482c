// The view of a board that only shows a position, for the pages that
// draw one without playing on it (replay.js, analysis.js); kept apart
// from render.js so that the game page does not carry it.

/**
 * The view of a board nobody plays on: its stones, and a turn's path and
 * captured points drawn on it.
 * @param {import('./types.js').Board | null} board
 * @param {string[]} [path]
 * @param {string[]} [captured]
 */
export function stillView(board, path = [], captured = []) {
  return {
    board,
    bottom: 'white',
    path,
    captured,
    chain: false,
    movable: [],
    selected: null,
    targets: new Map(),
    threatened: new Set(),
    preview: new Set(),
    choice: null,
    choiceTo: null,
  };
}
