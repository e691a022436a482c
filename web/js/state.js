// The game page's view state: a plain object, and the pure functions that
// make a new state from an old one. No DOM here, so Node tests all of it.
// Everything the page shows is in it, down to the point under the pointer,
// the stone being dragged and the resign question; input.js decides which
// of these functions an event calls. One file per part, gathered here:

export * from './state-core.js'; // its shape, a fresh one, modes and connection states
export * from './state-queries.js'; // questions about a state
export * from './state-server.js'; // what the server says
export * from './state-board.js'; // the player's hand on the board
export * from './state-actions.js'; // the player's other actions, and the page's own settings
export * from './state-draw.js'; // what to draw
