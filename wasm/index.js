// `fairmines-wasm`: the functions of api.js, ready to use. The WebAssembly module next to this file is
// loaded here with top-level await: in Node from the file (node:fs), elsewhere (browsers, workers,
// Deno) with fetch. A page that inlines the module imports `fairmines-wasm/init` and calls `initSync`.
import { init, initSync } from './api.js';

const url = new URL('./fairmines_wasm_bg.wasm', import.meta.url);
if (url.protocol === 'file:' && typeof process === 'object' && process.versions?.node) {
  const { readFileSync } = await import('node:fs');
  initSync(readFileSync(url));
} else {
  await init(url);
}

export * from './api.js';
