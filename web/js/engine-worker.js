// The engine in a Web Worker: the rules and the search compiled to
// WebAssembly (crates/fanorona-wasm), loaded once, searching while the
// page stays free. The page sends {type: 'analyse', id, position, nodes,
// depth}; the worker answers {type: 'ready', ...} once loaded, then for
// each search {type: 'line', id, line, ms} for every completed depth and
// {type: 'done', id, line, ms} at the end, in the lines of `fanorona
// analyse` (without nps and time: the page has the clock). To stop a
// search the page ends the worker and starts another, handing it the
// tables the first one built ({type: 'load', tables, tableData}), which
// it reads in a few milliseconds instead of building them again.

import { ENGINE_FILE } from './engine-file.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The module's exports once loaded, and the search's line handler. */
let engine = null;
let onLine = () => {};

/**
 * Loads the module and the endgame tables of up to `tables` stones, as
 * `fanorona analyse` does by default (4): read from `tableData` when the
 * page has them from an earlier worker, else built, and then handed to
 * the page with the ready message.
 * @param {number} tables
 * @param {ArrayBuffer} [tableData]
 */
async function load(tables, tableData) {
  const started = performance.now();
  const imports = {
    env: {
      fnr_line: (ptr, len) => onLine(decoder.decode(new Uint8Array(engine.memory.buffer, ptr, len))),
    },
  };
  const { instance } = await WebAssembly.instantiateStreaming(fetch(ENGINE_FILE), imports);
  engine = instance.exports;
  const loaded = performance.now();
  let tableBytes = 0;
  if (tables > 0 && tableData) {
    const at = engine.fnr_input(tableData.byteLength);
    new Uint8Array(engine.memory.buffer, at, tableData.byteLength).set(new Uint8Array(tableData));
    tableBytes = engine.fnr_tables_load();
  }
  const read = tableBytes > 0;
  let saved = null;
  if (!read) {
    tableBytes = engine.fnr_tables(tables);
    const len = engine.fnr_tables_save();
    if (len > 0) saved = new Uint8Array(engine.memory.buffer, engine.fnr_output(), len).slice().buffer;
  }
  return {
    type: 'ready', loadMs: loaded - started, tablesMs: performance.now() - loaded, tableBytes,
    tablesRead: read, tableData: saved,
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
    if (!loading) {
      loading = load(message.tables ?? 4, message.tableData).then((ready) => {
        postMessage(ready, ready.tableData ? [ready.tableData] : []);
      });
    }
    await loading;
    if (message.type === 'analyse') analyse(message);
  } catch (error) {
    postMessage({ type: 'failed', id: message.id, message: String(error && error.message || error) });
  }
};
