// Preloaded into each service by tools/perf/bench/tail-api.mjs and events.mjs --pauses (`node --require`): records the process's garbage
// collections and event-loop stalls with wall-clock times, so a slow request can be matched with what held up a
// process at that moment. Writes <PAUSE_PROBE_DIR>/<pid>.json when the process exits; does nothing without the
// variable. Costs a 5 ms timer per process.
const { PerformanceObserver, performance } = require('node:perf_hooks');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.PAUSE_PROBE_DIR;
if (dir) {
  const wall = (at) => performance.timeOrigin + at;
  const gc = [];
  const stalls = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      gc.push({ at: wall(entry.startTime), ms: entry.duration, kind: entry.detail?.kind });
  }).observe({ entryTypes: ['gc'] });
  const TICK_MS = 5;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const late = now - last - TICK_MS;
    if (late > 5) stalls.push({ at: wall(last + TICK_MS), ms: late });
    last = now;
  }, TICK_MS).unref();
  process.on('exit', () => {
    writeFileSync(
      join(dir, `${process.pid}.json`),
      JSON.stringify({ pid: process.pid, main: process.argv[1], gc, stalls }),
    );
  });
}
