// Load generators: autocannon for HTTP throughput (a closed loop), an open loop for latency at a fixed rate, and an
// exact loop (sub-millisecond timing) for the latency of one request at a time.
// Every loop is bounded by time or count and stops by itself.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { require } from './common.mjs';
import { round, summarize } from './stats.mjs';

const autocannon = require('autocannon');

/**
 * `connections` keep-alive connections for `durationS` seconds, as fast as the server answers (a closed loop: the
 * maximum rate). Latency percentiles are autocannon's (whole milliseconds). For a fixed rate see `pacedHttp`.
 */
export async function httpLoad({ url, headers = {}, connections = 32, durationS = 10, keys }) {
  const result = await autocannon({
    url,
    headers,
    connections,
    duration: durationS,
    // `keys()`: an API key per connection (each connection keeps the first it is given).
    ...(keys
      ? {
          requests: [
            {
              setupRequest: (request, context) => {
                context.key ??= keys();
                request.headers = { ...request.headers, authorization: `Bearer ${context.key}` };
                return request;
              },
            },
          ],
        }
      : {}),
    timeout: 10,
  });
  const total = result.requests.total;
  return {
    url: new URL(url).pathname,
    connections,
    duration_s: durationS,
    requests: total,
    rps: round(total / durationS, 0),
    p50_ms: result.latency.p50,
    p90_ms: result.latency.p90,
    p99_ms: result.latency.p99,
    max_ms: result.latency.max,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * An open loop at a steady `rate` (requests per second) for `durationS` seconds: request n is due at start + n/rate
 * and is sent then, whatever happened to the earlier ones, over up to `maxSockets` keep-alive connections. Latency
 * is counted from the moment a request was due (so time spent waiting for a free connection counts, as it would
 * for a real client). autocannon's `overallRate` is not used for this: it sends each connection's share of a
 * second back to back and then pauses until the next second, which is full load for part of every second.
 *
 * The loop runs in a worker thread (its own V8 heap and event loop): in the benchmark's own thread, which holds every
 * result so far, it was paused by that thread's major garbage collections (8-10 ms every 0.6 s in one run), and the
 * requests due or answered meanwhile were counted slow.
 *
 * `warmupS` seconds at the same rate come first, in the same worker and over the same connections, and are not
 * counted: a warm-up run of its own ended with its worker and its connections, so the measured run began with a cold
 * worker opening its connections, and that first second held nearly all of the slow requests (tail-api.mjs: 367 of
 * 368 over 25 ms in a 20 s run). `requests` counts every request sent, warm-up included (the CPU meters span both).
 */
export function pacedHttp(options) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./paced-http-worker.mjs', import.meta.url), { workerData: options });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the paced load worker stopped (exit ${code}) before answering`)));
  });
}

/** `pacedHttp`'s loop, run inside its worker (tools/perf/lib/paced-http-worker.mjs). */
export async function pacedHttpLoop({
  url,
  headers = {},
  rate,
  durationS = 10,
  warmupS = 0,
  maxSockets = 64,
  timeline = false,
}) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const target = new URL(url);
  const samples = [];
  // With `timeline`, each request's wall-clock due time, how late the generator sent it and its latency (tail-api).
  const requests = timeline ? [] : undefined;
  const statuses = {};
  let errors = 0;
  const pending = new Set();
  const send = (due, counted) => {
    const lateMs = performance.now() - due;
    const done = new Promise((resolve) => {
      const req = request(
        { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (counted) {
              samples.push(performance.now() - due);
              requests?.push({ at: performance.timeOrigin + due, late_ms: lateMs, ms: samples.at(-1) });
              statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            }
            resolve();
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
      req.on('error', () => {
        if (counted) errors += 1;
        resolve();
      });
      req.end();
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };
  const warmup = Math.round(rate * warmupS);
  const total = warmup + Math.round(rate * durationS);
  const interval = 1000 / rate;
  const start = performance.now() + 5;
  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && start + next * interval <= now) send(start + next * interval, next++ >= warmup);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(pending);
  agent.destroy();
  const stats = summarize(samples);
  const ok = Object.entries(statuses)
    .filter(([code]) => code >= 200 && code < 300)
    .reduce((n, [, c]) => n + c, 0);
  return {
    url: target.pathname,
    target_rate: Math.round(rate),
    duration_s: durationS,
    warmup_s: warmupS,
    requests: total,
    rps: round(samples.length / durationS, 0),
    p50_ms: stats.p50_ms,
    p90_ms: stats.p90_ms,
    p99_ms: stats.p99_ms,
    max_ms: stats.max_ms,
    non_2xx: samples.length - ok,
    errors,
    timeouts: 0,
    ...(requests ? { timeline: requests } : {}),
  };
}

/** One request at a time, `count` requests after `warmup`: exact latency of one request with nothing queued. */
export async function serialHttp({ url, headers = {}, count = 400, warmup = 50 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const once = () => timedGet(agent, target, `${target.pathname}${target.search}`, headers);
  for (let i = 0; i < warmup; i += 1) await once();
  const samples = [];
  const statuses = {};
  for (let i = 0; i < count; i += 1) {
    const { ms, status } = await once();
    samples.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  agent.destroy();
  return { ...summarize(samples), statuses };
}

/** A GET of `path` on `target`'s server over `agent`: its status and body, and the ms from sending to its end. */
export function timedGet(agent, target, path, headers, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: target.hostname, port: target.port, path, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ ms: performance.now() - started, status: res.statusCode, body: Buffer.concat(chunks) }),
      );
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timed out after ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end();
  });
}
