// Preloaded into each service by tools/perf/bench/profile-api.mjs --allocations (`node --require`): samples the process's
// allocations from SIGUSR2 until it exits, including objects that the next scavenge frees (the ones that make a
// young generation fill up; `node --heap-prof` keeps only objects still alive). Writes
// <ALLOC_PROBE_DIR>/<pid>.heapprofile when the process exits; does nothing without the variable.
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.ALLOC_PROBE_DIR;
if (dir) {
  // An in-process session answers synchronously, so the profile can still be taken in the 'exit' handler.
  const session = new inspector.Session();
  session.connect();
  let sampling = false;
  process.on('SIGUSR2', () => {
    if (sampling) return;
    sampling = true;
    session.post('HeapProfiler.enable');
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMinorGC: true,
      includeObjectsCollectedByMajorGC: true,
    });
  });
  process.on('exit', () => {
    if (!sampling) return;
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) return;
      writeFileSync(
        join(dir, `${process.pid}.heapprofile`),
        JSON.stringify({ pid: process.pid, main: process.argv[1], ...result.profile }),
      );
    });
  });
}
