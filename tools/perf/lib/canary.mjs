// A process that does nothing but wake every 5 ms, at the highest scheduling priority (nice -20 where allowed),
// so that it runs ahead of everything else on the machine: when it wakes late, the whole machine stood still (the
// hypervisor paused the VM, the kernel held every CPU), not just the processes under test. Benchmarks use it to
// tell a pause of the machine from a pause of the system.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TICK_MS = 5;

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--run') {
  // The canary itself: prints "<wall-clock ms> <late ms>" for every wake-up more than 2 ms late.
  const { performance } = await import('node:perf_hooks');
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const late = now - last - TICK_MS;
    if (late > 2) process.stdout.write(`${performance.timeOrigin + last + TICK_MS} ${late}\n`);
    last = now;
  }, TICK_MS);
  process.on('SIGTERM', () => process.exit(0));
}

/** Starts the canary; `stop()` returns its late wake-ups as [{ at, end, ms }] (wall-clock ms). */
export function startCanary() {
  const self = fileURLToPath(import.meta.url);
  // `nice` raises priority only with the right to (root here); otherwise it runs at normal priority and says so.
  const child = spawn('nice', ['-n', '-20', process.execPath, self, '--run'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  child.on('error', () => undefined);
  return {
    pid: child.pid,
    async stop() {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
      return text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [at, ms] = line.split(' ').map(Number);
          return { at, end: at + ms, ms };
        });
    },
  };
}
