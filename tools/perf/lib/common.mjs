// Shared by the benchmarks and the fault tests: where the repository is, how to load its packages, tables, result
// files, timing one thing at a time and the log line. Nothing here talks to the system.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { summarize } from './stats.mjs';

/** The perf kit's folder (tools/perf) and the repository's root. */
export const kit = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const root = resolve(kit, '../..');
/** `require` as seen from the kit's package: its dependencies, the workspace's packages (`@switchboard/*`). */
export const require = createRequire(join(kit, 'package.json'));
/** Where result files go (git-ignored). */
export const resultsDir = join(kit, 'results');

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
/** Wall-clock milliseconds with the monotonic clock's resolution: what probes and receivers stamp events with. */
export const wallNow = () => performance.timeOrigin + performance.now();
/** `12.3` (one decimal by default); `-` for what is not a finite number. */
export const fmt = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
/** `1,234`; `-` for what is not a finite number. */
export const int = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '-');
/** `73.3%` of a ratio. */
export const pct = (ratio, digits = 1) => (Number.isFinite(ratio) ? `${(ratio * 100).toFixed(digits)}%` : '-');
/** A size in a table's header: `10k`, `1M`, `1.5M`, `500`. */
export const shortCount = (n) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));

/** `run(i)` `warmup` times untimed, then `runs` times one at a time: the summary (stats.mjs) of the timed ones. */
export async function timeRuns(runs, warmup, run) {
  for (let i = 0; i < warmup; i += 1) await run(i);
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await run(warmup + i);
    samples.push(performance.now() - started);
  }
  return summarize(samples);
}

/** A Markdown table (also readable in a terminal). The first column is left-aligned, the others right-aligned. */
export function table(header, rows) {
  const cells = [header, ...rows].map((row) => header.map((_, column) => String(row[column] ?? '')));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  const line = (row) =>
    `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(' | ')} |`;
  const rule = `|${widths.map((w, column) => (column === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}

/** The rows of the Markdown tables in a text (lines starting with `|`): what `table` printed, for another report. */
export function tableLines(text) {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .join('\n');
}

export function machine() {
  const cpu = cpus();
  let os = release();
  try {
    os = readFileSync('/etc/os-release', 'utf8').match(/^PRETTY_NAME="?([^"\n]+)"?/m)?.[1] ?? os;
  } catch {
    // not Linux
  }
  const version = (command, args) => {
    try {
      return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
        .trim()
        .split('\n')[0];
    } catch {
      return undefined;
    }
  };
  return {
    cpu: cpu[0]?.model?.trim(),
    cores: cpu.length,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    os,
    kernel: release(),
    node: process.version,
    postgres: version('psql', ['--version']),
    nats_server: version('nats-server', ['--version']),
  };
}

/** Writes `tools/perf/results/<name>-<timestamp>.json` and returns its path relative to the repository. */
export function writeResults(name, results) {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file.slice(root.length + 1);
}

export function say(message) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}
