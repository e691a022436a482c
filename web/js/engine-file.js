// Written by scripts/build-wasm.sh: the engine's file, named by its
// content so that it can be cached for good.
export const ENGINE_FILE = '/engine/fanorona.wasm?v=255eabd1b41a7770';
