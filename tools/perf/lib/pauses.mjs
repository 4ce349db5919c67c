// What tools/perf/probes/pause-probe.cjs records in each service, for the tools that line slow requests up with it (bench/tail-api.mjs,
// bench/events.mjs --pauses): how to start the services with the probe, its records, and names for V8's collections.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants } from 'node:perf_hooks';
import { kit } from './common.mjs';

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor (scavenge)',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/** A garbage collection's kind as a word (the probe records V8's number). */
export function gcKindName(kind) {
  return GC_KINDS[kind] ?? String(kind);
}

/** A directory for the records, and the environment and node arguments that make each service write them there. */
export function pauseProbe() {
  const dir = mkdtempSync(join(tmpdir(), 'sb-pauses-'));
  return { dir, env: { PAUSE_PROBE_DIR: dir }, nodeArgs: ['--require', join(kit, 'probes/pause-probe.cjs')] };
}

/** Every process's records (`{ pid, main, gc, stalls }`), written by each service as it stopped. */
export function readPauseProbes(dir) {
  return readdirSync(dir).map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')));
}
