// The child processes of the benchmarks and fault tests (servers, floors, nats-server): the line a server prints once
// it is up, and a stop that does not hang on a process that ignores its signal.

/** Whether `child` has not exited yet. */
export const running = (child) => child.exitCode === null && child.signalCode === null;

/** The first output of `child` (its port, or `ready`), trimmed; rejects when `name` exits first. */
export function firstOutput(child, name) {
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (data) => resolve(String(data).trim()));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
}

/** Sends `signal` and waits for the exit; after `graceMs` without one, SIGKILL, and waits for that. */
export async function stopProcess(child, signal = 'SIGTERM', graceMs = 10_000) {
  if (!running(child)) return;
  const ended = new Promise((done) => child.once('exit', done));
  child.kill(signal);
  let timer;
  await Promise.race([ended, new Promise((done) => (timer = setTimeout(done, graceMs)))]);
  clearTimeout(timer);
  if (running(child)) {
    child.kill('SIGKILL');
    await ended;
  }
}
