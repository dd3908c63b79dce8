// How many threads the simulation gets in the page (the worker's M.setThreads): the compliance's
// and the factorization's loops and the element pass (common/parallel.h).  docs/web.md, "Threads":
// on the 2-core machine one and two threads gave the same real-time factor.

/** The most the module can use: it starts 3 workers beside the simulation's own thread. */
export const MAX_SIM_THREADS = 4;

/**
 * The simulation's thread count: `asked` (the page's ?threads=) when it is a whole number from 1
 * to MAX_SIM_THREADS, else the machine's `cores` (navigator.hardwareConcurrency), at least 1 and
 * at most MAX_SIM_THREADS.  The numbers the simulation computes do not depend on it.
 * @param {number|string|undefined|null} asked
 * @param {number|undefined} cores
 */
export function simulationThreads(asked, cores) {
  const n = parseThreads(asked);
  if (n !== null) return n;
  const c = Number.isFinite(Number(cores)) ? Math.floor(Number(cores)) : 1;
  return Math.max(1, Math.min(MAX_SIM_THREADS, c));
}

/**
 * `text` as a thread count (a whole number from 1 to MAX_SIM_THREADS), null when absent
 * (undefined, null or '') or not such a number.
 */
export function parseThreads(text) {
  if (text === undefined || text === null || text === '') return null;
  const s = String(text).trim();
  if (!/^[0-9]+$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= MAX_SIM_THREADS ? n : null;
}
