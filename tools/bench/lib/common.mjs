// Shared by tools/bench and tools/chaos: where the repository is, how to load its packages, statistics, tables and
// result files. Nothing here talks to the system.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** `require` as seen from the repository root (its node_modules, then NODE_PATH). */
export const require = createRequire(join(root, 'package.json'));

/**
 * A package the benchmarks need that may not be installed yet (autocannon): a clear error instead of a stack.
 * Scripts ask for it before they start anything, so a missing tool leaves nothing behind.
 */
export function requireTool(name, why) {
  try {
    return require(name);
  } catch (error) {
    if (error?.code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      `${name} is not installed (${why}). Install it as a dev dependency (see docs/performance.md), or point NODE_PATH at a folder holding it.`,
    );
  }
}

// ------------------------------------------------------------------------------------------------ options
export function parseOptions(argv, spec) {
  const values = {};
  for (const [name, { default: fallback }] of Object.entries(spec)) values[name] = fallback;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const [name, inline] = arg.slice(2).split('=', 2);
    const def = spec[name];
    if (!def)
      throw new Error(
        `unknown option --${name} (known: ${Object.keys(spec)
          .map((k) => `--${k}`)
          .join(' ')})`,
      );
    if (def.type === 'boolean') values[name] = inline === undefined ? true : inline !== 'false';
    else {
      const raw = inline ?? argv[(i += 1)];
      if (raw === undefined) throw new Error(`--${name} needs a value`);
      values[name] =
        def.type === 'number'
          ? Number(raw)
          : def.type === 'list'
            ? raw
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean)
            : raw;
      if (def.type === 'number' && !Number.isFinite(values[name])) throw new Error(`--${name} must be a number`);
    }
  }
  return values;
}

// ------------------------------------------------------------------------------------------------ statistics
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/** p50/p90/p99/max/mean of a list of milliseconds. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, v) => sum + v, 0) / (sorted.length || 1);
  return {
    count: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p90_ms: round(percentile(sorted, 90)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted.at(-1) ?? NaN),
    mean_ms: round(mean),
  };
}

export const round = (value, digits = 2) =>
  Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value;
export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
export const fmt = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
export const int = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '-');

// ------------------------------------------------------------------------------------------------ output
/** A Markdown table (also readable in a terminal). The first column is left-aligned, the others right-aligned. */
export function table(header, rows) {
  const cells = [header, ...rows].map((row) => row.map((cell) => String(cell ?? '')));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  const line = (row) =>
    `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(' | ')} |`;
  const rule = `|${widths.map((w, column) => (column === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
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

/** Writes `<dir>/<name>-<timestamp>.json` and returns the path relative to the repository. */
export function writeResults(kind, name, results) {
  const dir = join(root, 'tools', kind, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file.slice(root.length + 1);
}

export function say(message) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}
