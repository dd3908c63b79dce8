export * from './suction_wasm.js';
export { default } from './suction_wasm.js';
