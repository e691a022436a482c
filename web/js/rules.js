// The rules in the page: the WebAssembly file the engine's worker loads
// (crates/fanorona-wasm), instantiated here on the page's own thread the
// first time a board asks. Its steps answer as GET /api/steps does (the
// server's tests hold the two equal), so the analysis board and the
// puzzles play by the same rules as a game without asking the server.

import { ENGINE_FILE } from './engine-file.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The module's exports, once asked for. */
let exports = null;

function load() {
  if (!exports) {
    // Lines come only from a search, which the page's thread never runs.
    const imports = { env: { fnr_line: () => {} } };
    exports = WebAssembly.instantiateStreaming(fetch(ENGINE_FILE), imports)
      .then(({ instance }) => instance.exports)
      .catch((error) => {
        exports = null;
        throw error;
      });
  }
  return exports;
}

/** Calls one of the module's commands on `input`; its JSON answer. */
async function call(command, input) {
  const x = await load();
  const bytes = encoder.encode(input);
  const at = x.fnr_input(bytes.length);
  new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
  const len = x[command]();
  return JSON.parse(decoder.decode(new Uint8Array(x.memory.buffer, x.fnr_output(), len)));
}

/**
 * What the rules allow in `position` (position text) after the turn so
 * far (`turn`, notation, '' before the first step), as GET /api/steps
 * answers: {ok, body}, body an error ({type: 'error', code, message})
 * when not ok, or null when the module could not be loaded.
 * @param {string} position
 * @param {string} [turn]
 * @returns {Promise<{ok: boolean, body: object|null}>}
 */
export async function pageSteps(position, turn = '') {
  try {
    const body = await call('fnr_steps', `${position}\n${turn}`);
    if (typeof body.code === 'string') return { ok: false, body: { type: 'error', ...body } };
    return { ok: true, body };
  } catch {
    return { ok: false, body: null };
  }
}

/**
 * The position once `turn` is played whole from `position`, ended where
 * its notation ends: the position text, or null when the rules refuse it.
 * @param {string} position
 * @param {string} turn
 * @returns {Promise<string|null>}
 */
export async function positionAfter(position, turn) {
  try {
    const body = await call('fnr_play', `${position}\n${turn}`);
    return typeof body.position === 'string' ? body.position : null;
  } catch {
    return null;
  }
}
