// The lesson worker's entry: loads the worker's glue, then its WebAssembly,
// both next to this file (any path of any host). Written here rather than
// generated, so the module is passed the way wasm-bindgen asks for it.
importScripts("./lesson-worker.js");
wasm_bindgen({ module_or_path: "./lesson-worker_bg.wasm" });
