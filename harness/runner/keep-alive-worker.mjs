// The test thread of the keep-alive pool (harness/runner/keep-alive-pool.ts): vitest's own thread worker
// (`vitest/worker`, as its workers/threads.js wires it), except that it outlives a test run. The pool hands it a later
// run with its modules still loaded, so a run costs its tests and not a fresh module graph.
import { parentPort } from 'node:worker_threads';
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';

if (!parentPort) throw new Error('harness/runner/keep-alive-worker.mjs runs in a worker thread of the keep-alive pool');
const port = parentPort;

// Each run starts with a `start` message, for which vitest adds a fresh RPC listener to the port: the previous run's
// is dropped then, or a kept thread would answer every message once per run it has served.
let ownListener;
let rpcListeners = [];
port.on('message', (message) => {
  if (message?.__vitest_worker_request__ !== true || message.type !== 'start') return;
  for (const listener of rpcListeners) port.off('message', listener);
  rpcListeners = [];
});

init({
  post: (response) => port.postMessage(response),
  on: (callback) => {
    port.on('message', callback);
    if (ownListener === undefined) ownListener = callback;
    else rpcListeners.push(callback);
  },
  off: (callback) => port.off('message', callback),
  // vitest's thread worker drops every listener here; this one never gets `stop` (the pool answers it), and when it
  // is terminated nothing is left to drop
  teardown: () => {},
  runTests: (state, traces) => runBaseTests('run', state, traces),
  collectTests: (state, traces) => runBaseTests('collect', state, traces),
  setup: setupEnvironment,
});
