// The page's end of the link to the simulation worker (src/worker.js): sends the commands of
// src/messages.js TO_WORKER and hands each FROM_WORKER message to its handler. `handlers` must
// cover every FROM_WORKER type (checked here, at start); an unknown message is an error.
import { TO_WORKER, FROM_WORKER, message, dispatch, checkHandlers, MessageError } from './messages.js';

/**
 * Starts the worker. handlers: { [FROM_WORKER type]: (msg) => void }; onAny(msg): called before
 * each handler; onError(where, text): the worker failed, or sent what is not a message.
 * Returns { send(type, fields) }.
 */
export function connectWorker(url, handlers, { onAny = () => {}, onError = () => {} } = {}) {
  checkHandlers(FROM_WORKER, handlers);
  const worker = new Worker(url, { type: 'module' });
  worker.onerror = (e) => onError('worker', e.message || 'the simulation worker failed to start');
  worker.onmessage = (ev) => {
    onAny(ev.data);
    try { dispatch(FROM_WORKER, handlers, ev.data); }
    catch (e) { if (e instanceof MessageError) onError('worker', e.message); else throw e; }
  };
  return { send: (type, fields) => worker.postMessage(message(TO_WORKER, type, fields)) };
}
