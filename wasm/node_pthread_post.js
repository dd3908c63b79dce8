// --extern-post-js of the threaded node module (suction_wasm_node in build/wasm), for two
// things emcc 3.1.6 does not do in node:
// - Its pthread worker (suction_wasm_node.worker.js) loads this script and calls
//   `createSuction(Module).then(...)`, but with -sWASM_ASYNC_COMPILATION=0 (needed in node 20,
//   TOOLCHAIN.md #3) the factory returns the Module itself, which has no `then`: every Worker
//   failed to start.  Inside a pthread Worker the factory returns the Module's `ready` promise.
// - The pool's Workers (-sPTHREAD_POOL_SIZE) keep node's event loop alive, so a script that
//   loaded the module never ended.  On the main thread the exported factory unrefs them once the
//   module is ready: the
//   core's threads are only ever joined by a call of the main thread, never waited for.
(function () {
  var inWorker = typeof importScripts === 'function' && typeof Module === 'object' && Module &&
                 Module['ENVIRONMENT_IS_PTHREAD'];
  if (typeof createSuction !== 'function') return;
  var factory = createSuction;
  if (inWorker) {
    createSuction = function (moduleArg) {
      var made = factory(moduleArg);
      return made && typeof made.then !== 'function' && made.ready ? made.ready : made;
    };
  } else if (typeof module === 'object' && module.exports === factory) {
    var unref = function (m) {
      var p = m && m['PThread'];
      if (!p) return;
      [].concat(p.unusedWorkers || [], p.runningWorkers || []).forEach(function (w) {
        if (w && typeof w.unref === 'function') w.unref();
      });
    };
    module.exports = function (moduleArg) {
      var made = factory(moduleArg);
      // (after `ready`: the module waits for its Workers to load, which needs them referenced)
      if (made && made.ready && typeof made.ready.then === 'function') made.ready.then(unref);
      return made;
    };
  }
})();
