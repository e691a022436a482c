// The engine in a Web Worker: the rules and the search compiled to
// WebAssembly (crates/fanorona-wasm), loaded once, searching while the
// page stays free. The page sends {type: 'analyse', id, position, nodes,
// depth}; the worker answers {type: 'ready', ...} once loaded, then for
// each search {type: 'line', id, line, ms} for every completed depth and
// {type: 'done', id, line, ms} at the end, in the lines of `fanorona
// analyse` (without nps and time: the page has the clock). To stop a
// search the page ends the worker and starts another.

import { ENGINE_FILE } from './engine-file.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The module's exports once loaded, and the search's line handler. */
let engine = null;
let onLine = () => {};

/**
 * Loads the module and builds the endgame tables of up to `tables` stones,
 * as `fanorona analyse` does by default (4).
 * @param {number} tables
 */
async function load(tables) {
  const started = performance.now();
  const imports = {
    env: {
      fnr_line: (ptr, len) => onLine(decoder.decode(new Uint8Array(engine.memory.buffer, ptr, len))),
    },
  };
  const { instance } = await WebAssembly.instantiateStreaming(fetch(ENGINE_FILE), imports);
  engine = instance.exports;
  const loaded = performance.now();
  const tableBytes = engine.fnr_tables(tables);
  return {
    type: 'ready', loadMs: loaded - started, tablesMs: performance.now() - loaded, tableBytes,
  };
}

/** Runs one search, posting its lines as they come. */
function analyse({ id, position, nodes, depth }) {
  const text = encoder.encode(String(position));
  const at = engine.fnr_input(text.length);
  new Uint8Array(engine.memory.buffer, at, text.length).set(text);
  const started = performance.now();
  onLine = (line) => postMessage({ type: 'line', id, line, ms: performance.now() - started });
  const len = engine.fnr_analyse(nodes >>> 0, depth >>> 0);
  const out = decoder.decode(new Uint8Array(engine.memory.buffer, engine.fnr_output(), len));
  onLine = () => {};
  postMessage({ type: 'done', id, line: out, ms: performance.now() - started });
}

let loading = null;
self.onmessage = async (event) => {
  const message = event.data || {};
  try {
    if (!loading) loading = load(message.tables ?? 4).then((ready) => { postMessage(ready); });
    await loading;
    if (message.type === 'analyse') analyse(message);
  } catch (error) {
    postMessage({ type: 'failed', id: message.id, message: String(error && error.message || error) });
  }
};
