// Reads a V8 CPU profile (.cpuprofile, from node --cpu-prof) and says where the time went: the functions with the
// most self time, and self time by package (node_modules/<package>, the app's own code, node internals, GC). Also
// reads `perf report`'s text, for on-CPU samples (bench/profile-events.mjs --on-cpu).

/** `node_modules/@scope/name/...` -> `@scope/name`; the workspace's own code by its first folders; else the kind. */
export function packageOf(url) {
  if (!url) return '(native / V8)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(apps|libs|tools)\/([^/]+)\//.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

export function summarizeProfile(profile, top = 25) {
  const costs = tally(selfTimes(profile), (callFrame, name) =>
    ['(idle)', '(program)', '(garbage collector)'].includes(name) ? name : packageOf(callFrame.url),
  );
  const ms = (micros) => `${(micros / 1000).toFixed(0).padStart(7)} ms`;
  return `total ${ms(costs.total).trim()} sampled\n\n${ranking(costs, ms, top, 'self time')}`;
}

/** A CPU profile's self time by call frame: `[callFrame, microseconds]` for each node sampled. */
function selfTimes(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i += 1)
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
  return [...self].map(([id, micros]) => [nodes.get(id).callFrame, micros]);
}

/**
 * Where a sampling heap profile (.heapprofile, from probes/alloc-probe.cjs) says the bytes were allocated: by package
 * and by function (self bytes), per request when `requests` is given.
 */
export function summarizeAllocations(profile, { top = 25, requests } = {}) {
  const frames = [];
  const visit = (node) => {
    if (node.selfSize > 0) frames.push([node.callFrame, node.selfSize]);
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  const costs = tally(frames, (callFrame, name) => (callFrame.url ? packageOf(callFrame.url) : name));
  const unit = requests
    ? (bytes) => `${(bytes / requests / 1024).toFixed(1).padStart(7)} KiB/req`
    : (bytes) => `${(bytes / 1048576).toFixed(1).padStart(7)} MiB`;
  return `total ${unit(costs.total).trim()} allocated\n\n${ranking(costs, unit, top, 'self bytes')}`;
}

/** Self cost (time or bytes) of `[callFrame, amount]` pairs, summed by function and by package. */
function tally(frames, packageOfFrame) {
  const byFunction = new Map();
  const byPackage = new Map();
  let total = 0;
  for (const [callFrame, amount] of frames) {
    const name = callFrame.functionName || '(anonymous)';
    const where = callFrame.url
      ? `${callFrame.url.replace(/^.*\/(node_modules|apps|libs)\//, '$1/')}:${callFrame.lineNumber + 1}`
      : '';
    const fn = `${name} ${where}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + amount);
    const pkg = packageOfFrame(callFrame, name);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + amount);
    total += amount;
  }
  return { byFunction, byPackage, total };
}

/** The top packages and functions of a tally, each with its share and its amount in `unit`. */
function ranking({ byFunction, byPackage, total }, unit, top, what) {
  const lines = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([label, amount]) => `${((100 * amount) / total).toFixed(1).padStart(5)}%  ${unit(amount)}  ${label}`)
      .join('\n');
  return `by package:\n${lines(byPackage, 20)}\n\nby function (${what}):\n${lines(byFunction, top)}`;
}

/** The monotonic clock V8 stamps profile samples with, in microseconds (the same in every process of a machine). */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** The profile with only the samples taken between `from` and `to` (monotonic microseconds). */
export function within(profile, { from, to }) {
  const samples = [];
  const timeDeltas = [];
  let at = profile.startTime;
  let last = from;
  for (let i = 0; i < profile.samples.length; i += 1) {
    at += profile.timeDeltas[i];
    if (at < from || at > to) continue;
    samples.push(profile.samples[i]);
    timeDeltas.push(at - last);
    last = at;
  }
  return { ...profile, samples, timeDeltas };
}

/**
 * A profile's CPU per request by package, in microseconds: its samples outside idle over `requests`. What
 * `compareCosts` lines up for a process of the system and its counterpart in the floor.
 */
export function costPerRequest(profile, requests) {
  // As summarizeProfile, but idle left out, and native frames by name: the kernel's socket writes (`writev`,
  // `writeBuffer`) apart from V8's own work.
  const busy = selfTimes(profile).filter(([callFrame]) => callFrame.functionName !== '(idle)');
  const { byPackage, total } = tally(busy, (callFrame, name) =>
    ['(program)', '(garbage collector)'].includes(name)
      ? name
      : callFrame.url
        ? packageOf(callFrame.url)
        : callFrame.functionName || '(native / V8)',
  );
  const perRequest = (micros) => micros / requests;
  return { busy: perRequest(total), byPackage: new Map([...byPackage].map(([name, us]) => [name, perRequest(us)])) };
}

/**
 * Two processes' CPU per request side by side (`costPerRequest`): the packages on which the first spends most above
 * the second (where the system's process costs more than the floor's that does the same hop), then those on which
 * it spends least (where the floor pays for something the system avoids).
 */
export function compareCosts(label, system, floor, { above = 20, below = 5 } = {}) {
  const names = new Set([...system.byPackage.keys(), ...floor.byPackage.keys()]);
  const rows = [...names]
    .map((name) => {
      const ours = system.byPackage.get(name) ?? 0;
      const theirs = floor.byPackage.get(name) ?? 0;
      return { name, ours, theirs, difference: ours - theirs };
    })
    .sort((a, b) => b.difference - a.difference);
  const us = (value) => value.toFixed(1).padStart(8);
  const line = (row) => `${us(row.ours)} ${us(row.theirs)} ${us(row.difference)}  ${row.name}`;
  const more = rows.filter((row) => row.difference > 0).slice(0, above);
  const less = rows.filter((row) => row.difference < 0).slice(-below);
  return [
    `${label[0]} ${us(system.busy).trim()} us of CPU a request, the ${label[1]} ${us(floor.busy).trim()} us ` +
      `(${(system.busy - floor.busy).toFixed(1)} above)`,
    '',
    '  system    floor   above  package',
    ...more.map(line),
    ...(less.length ? ['     ...', ...less.map(line)] : []),
  ].join('\n');
}

/**
 * `perf report --sort pid,dso --stdio`'s lines (`  12.34%  4242:node  [kernel.kallsyms]`) as each process's share of
 * the machine's samples by where they ran: { label: { kernel | 'JIT code' | <dso>: percent } }, for the processes of
 * `byPid` ({ pid: label }) only.
 */
export function parsePerfReport(text, byPid) {
  const shares = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([\d.]+)%\s+(\d+):\S+\s+(.+?)\s*$/.exec(line);
    const label = match && byPid[match[2]];
    if (!label) continue;
    const dso = match[3].startsWith('[JIT]') ? 'JIT code' : match[3].replace(/^\[kernel\.kallsyms\]$/, 'kernel');
    shares[label] ??= {};
    shares[label][dso] = (shares[label][dso] ?? 0) + Number(match[1]);
  }
  return shares;
}
