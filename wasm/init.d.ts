// `fairmines-wasm/init`: the functions of `fairmines-wasm` without loading the WebAssembly module; call
// `initSync(bytes)` or `await init(source)` before any other function.
export * from './index.js'
