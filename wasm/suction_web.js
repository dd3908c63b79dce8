// The page module under the name of the JS API contract (docs/wasm-api.md): the same ES6
// factory `createSuction` as suction_wasm.js (which loads suction_wasm.wasm and, in the threaded
// build, suction_wasm.worker.js from its own directory).
export { default } from './suction_wasm.js';
