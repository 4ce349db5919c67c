// Where the CPU went during a phase, from /proc: each of our processes by name (the services, the load generator,
// the receiver), PostgreSQL and nats-server (all their processes), and everything else on the machine. With two
// cores every figure competes for the same 200%; "other" shows a run disturbed by work that is not ours.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { sleep } from './common.mjs';

const TICKS_PER_SECOND = 100;

/**
 * One line of `/proc/<pid>/stat`: the command name (in parentheses, and may hold spaces and parentheses itself), the
 * parent's pid, user + system CPU ticks, and the start time (which tells a process from a later one with its pid).
 */
export function parseProcStat(text) {
  const close = text.lastIndexOf(')');
  const open = text.indexOf('(');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  const rest = text
    .slice(close + 2)
    .trim()
    .split(' ');
  const [ppid, utime, stime] = [rest[1], rest[11], rest[12]].map(Number);
  if (![ppid, utime, stime].every(Number.isFinite) || rest[19] === undefined)
    throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  return { comm: text.slice(open + 1, close), ppid, ticks: utime + stime, startedAt: rest[19] };
}

function readStat(pid) {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // ended meanwhile
  }
}

function snapshot() {
  const processes = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(name);
    if (stat) processes.set(Number(name), stat);
  }
  return { at: process.hrtime.bigint(), processes };
}

/**
 * Starts measuring. `labels()` returns { pid: label } for our processes at the end of the phase (a process
 * restarted during it keeps its label). `stop()` returns { wall_s, cores, by: { label: percent of one core } }.
 */
function cpuMeter(labels) {
  const start = snapshot();
  return {
    stop() {
      const end = snapshot();
      const wall = Number(end.at - start.at) / 1e9;
      const named = labels();
      const by = {};
      const add = (label, ticks) => (by[label] = (by[label] ?? 0) + ticks);
      for (const [pid, stat] of end.processes) {
        const before = start.processes.get(pid);
        // The same process (not a reused pid) when it started at the same moment.
        const ticks = stat.ticks - (before && before.startedAt === stat.startedAt ? before.ticks : 0);
        if (ticks <= 0) continue;
        let label = named[pid];
        if (!label) {
          // A child of one of ours (e.g. a worker) counts as its parent.
          const parent = named[stat.ppid];
          if (parent) label = parent;
          else if (stat.comm === 'postgres') label = 'postgres';
          else if (stat.comm === 'nats-server') label = 'nats-server';
          else label = 'other';
        }
        add(label, ticks);
      }
      const percent = Object.fromEntries(
        Object.entries(by)
          .map(([label, ticks]) => [label, Math.round((ticks / TICKS_PER_SECOND / wall) * 100)])
          .sort((a, b) => b[1] - a[1]),
      );
      return { wall_s: Math.round(wall * 10) / 10, cores: cpus().length, percent_of_one_core: percent };
    },
  };
}

/** "gateway 95%, postgres 60%, ..." for a table cell. */
export function cpuLine(result, top = 6) {
  return Object.entries(result.percent_of_one_core)
    .slice(0, top)
    .map(([label, value]) => `${label} ${value}%`)
    .join(', ');
}

/**
 * CPU used by processes that are not part of the run, in % of one core: nor PostgreSQL or NATS, unless `shared` (before
 * the run uses them, what they do is someone else's work).
 */
export function foreignPercent({ percent_of_one_core: p }, { shared = false } = {}) {
  return (p.other ?? 0) + (shared ? (p.postgres ?? 0) + (p['nats-server'] ?? 0) : 0);
}

/**
 * Waits for a quiet machine: measures other processes' CPU (`foreignPercent`, `shared` as there) over `sampleMs` until
 * it is at most `maxPercent` of one core or `waitS` seconds have passed, `pauseMs` between tries and `onWait(percent)`
 * before each pause; answers the last figure.
 */
export async function waitForQuiet({ labels, waitS, sampleMs, pauseMs = 0, shared = false, maxPercent = 30, onWait }) {
  const deadline = Date.now() + waitS * 1000;
  for (;;) {
    const meter = cpuMeter(labels);
    await sleep(sampleMs);
    const percent = foreignPercent(meter.stop(), { shared });
    if (percent <= maxPercent || Date.now() >= deadline) return percent;
    onWait?.(percent);
    await sleep(pauseMs);
  }
}

/** Milliseconds of CPU per request (or delivery) for each process label. */
function cpuPerRequest(result, requests) {
  if (!requests) return {};
  return Object.fromEntries(
    Object.entries(result.percent_of_one_core)
      .filter(([label]) => label !== 'other')
      .map(([label, percent]) => [label, Math.round(((percent / 100) * result.wall_s * 1000 * 100) / requests) / 100]),
  );
}

/**
 * Runs a measurement with the CPU and database transactions counted. Another session's work on the machine
 * (`other` over `maxForeign`% of one core) makes the figure worthless: it is measured again, up to `attempts`
 * times, and the least disturbed attempt is kept (marked `disturbed` when even that one was).
 */
export async function measured({ run, labels, system, attempts = 3, maxForeign = 20, onRetry }) {
  let best;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const cpu = cpuMeter(labels);
    const transactions = system ? await system.transactionMeter() : undefined;
    const result = await run();
    result.cpu = cpu.stop();
    if (transactions) result.transactions = await transactions.stop();
    const requests = result.requests ?? result.count;
    result.cpu_ms_per_request = cpuPerRequest(result.cpu, requests);
    if (result.transactions && requests) {
      result.transactions_per_request = Object.fromEntries(
        Object.entries(result.transactions)
          .filter(([, n]) => n > 0)
          .map(([app, n]) => [app, Math.round((n / requests) * 100) / 100]),
      );
    }
    result.foreign_cpu_percent = foreignPercent(result.cpu);
    result.attempt = attempt;
    if (!best || result.foreign_cpu_percent < best.foreign_cpu_percent) best = result;
    if (result.foreign_cpu_percent <= maxForeign) break;
    if (attempt < attempts) onRetry?.(result.foreign_cpu_percent);
  }
  best.disturbed = best.foreign_cpu_percent > maxForeign;
  return best;
}

/** "gateway 2.20, numbers-billing 1.01" (ms of CPU per request), largest first, for a table cell. */
export function perRequestLine(result, top = 5) {
  return Object.entries(result.cpu_ms_per_request ?? {})
    .filter(([, ms]) => ms >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([label, ms]) => `${label} ${ms.toFixed(2)}`)
    .join(', ');
}

/** Database transactions per request, by service. */
export function transactionsLine(result) {
  return Object.entries(result.transactions_per_request ?? {})
    .filter(([, n]) => n >= 0.05)
    .map(([app, n]) => `${app} ${n}`)
    .join(', ');
}

/**
 * The machine's CPU time from `/proc/stat`'s first line (`cpu  user nice system idle iowait irq softirq steal ...`, in
 * ticks of 1/100 s summed over the cores): busy (user, nice, system, irq, softirq), steal (taken by the hypervisor)
 * and idle (idle and iowait).
 */
export function readCpuTimes(procStat) {
  const [label, ...fields] = procStat.split('\n')[0].trim().split(/\s+/);
  const [user, nice, sys, idle, iowait, irq, softirq, steal] = fields.map(Number);
  if (label !== 'cpu' || ![user, nice, sys, idle, iowait, irq, softirq, steal].every(Number.isFinite))
    throw new Error(`not /proc/stat: ${procStat.slice(0, 80)}`);
  return { busy: user + nice + sys + irq + softirq, steal, idle: idle + iowait };
}

/** The machine's CPU between two readings ({ at: wall-clock ms, ...readCpuTimes }): busy and steal, % of one core. */
export function machineCpuBetween(before, after) {
  const ticks = (after.at - before.at) / 10; // USER_HZ = 100
  return {
    at: before.at,
    end: after.at,
    busy: (100 * (after.busy - before.busy)) / ticks,
    steal: (100 * (after.steal - before.steal)) / ticks,
  };
}
