// Reads a V8 CPU profile (.cpuprofile, from node --cpu-prof) and says where the time went: the functions with the
// most self time, and self time by package (node_modules/<package>, the app's own code, node internals, GC).

/** `node_modules/@scope/name/...` -> `@scope/name`; the workspace's own code by its first folders; else the kind. */
export function packageOf(url) {
  if (!url) return '(native / V8)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(apps|libs)\/([^/]+)\//.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

export function summarizeProfile(profile, top = 25) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i += 1) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byPackage = new Map();
  for (const [id, micros] of self) {
    const { callFrame } = nodes.get(id);
    const name = callFrame.functionName || '(anonymous)';
    const where = callFrame.url ? `${callFrame.url.replace(/^.*\/(node_modules|apps|libs)\//, '$1/')}:${callFrame.lineNumber + 1}` : '';
    const fn = `${name} ${where}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
    const pkg = ['(idle)', '(program)', '(garbage collector)'].includes(name) ? name : packageOf(callFrame.url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  }
  const lines = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([label, micros]) => `${((100 * micros) / total).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${label}`)
      .join('\n');
  return `total ${(total / 1000).toFixed(0)} ms sampled\n\nby package:\n${lines(byPackage, 20)}\n\nby function (self time):\n${lines(byFunction, top)}`;
}

/**
 * Where a sampling heap profile (.heapprofile, from lib/alloc-probe.cjs) says the bytes were allocated: by package
 * and by function (self bytes), per request when `requests` is given.
 */
export function summarizeAllocations(profile, { top = 25, requests } = {}) {
  const byFunction = new Map();
  const byPackage = new Map();
  let total = 0;
  const visit = (node) => {
    const bytes = node.selfSize;
    if (bytes > 0) {
      const { callFrame } = node;
      const name = callFrame.functionName || '(anonymous)';
      const where = callFrame.url ? `${callFrame.url.replace(/^.*\/(node_modules|apps|libs)\//, '$1/')}:${callFrame.lineNumber + 1}` : '';
      const fn = `${name} ${where}`.trim();
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + bytes);
      const pkg = callFrame.url ? packageOf(callFrame.url) : name;
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytes);
      total += bytes;
    }
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  const unit = requests ? (bytes) => `${(bytes / requests / 1024).toFixed(1).padStart(7)} KiB/req` : (bytes) => `${(bytes / 1048576).toFixed(1).padStart(7)} MiB`;
  const lines = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([label, bytes]) => `${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${unit(bytes)}  ${label}`)
      .join('\n');
  return `total ${unit(total).trim()} allocated\n\nby package:\n${lines(byPackage, 20)}\n\nby function (self bytes):\n${lines(byFunction, top)}`;
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
