// The worker thread `pacedHttp` (lib/load.mjs) runs its open loop in: a fresh heap and event loop of its own, so the
// benchmark's thread (results, samplers, autocannon) does not pause the clock the latencies are read from.
import { parentPort, workerData } from 'node:worker_threads';
import { pacedHttpLoop } from './load.mjs';

parentPort.postMessage(await pacedHttpLoop(workerData));
