// The supervisor behind `npm start`: runs each service as a child process, restarts one that dies (the others
// keep running), and stops them all on request. Kept apart from start.mjs's set-up (install, build, NATS) so each
// can change alone; tested with stand-in children in supervisor.spec.ts. docs/adr/0098 says why it restarts.
// npm start runs two: one for the services, and one for the PostgreSQL and nats-server it started itself (their data
// is on disk, so they restart the same way), stopped after the services.
//
// Restart policy: the first restart after a crash waits `firstDelayMs`, each further crash in a row doubles the
// wait up to `maxDelayMs`. A crash counts as "in a row" when the service had run less than `stableAfterMs`; a
// service that stayed up that long starts again from the first delay. From `crashLoopAfter` crashes in a row the
// log says the service is crash-looping. It never gives up: in development the fix is usually an edit away, and a
// service that gave up would leave the system half up with nothing but an old log line saying so.
import { spawn } from 'node:child_process';

export const DEFAULT_RESTART_POLICY = Object.freeze({
  firstDelayMs: 1000,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
  crashLoopAfter: 5,
});

/** How long an exited service's last output may take to arrive before its exit is handled without it. */
const OUTPUT_AFTER_EXIT_MS = 1000;

/** How long `stop()` waits for a service to exit after SIGTERM before it sends SIGKILL (they take up to 15 s). */
export const DEFAULT_STOP_GRACE_MS = 20_000;

/**
 * What to do after a service exits on its own: `crashes` is how many times in a row it has now crashed (1 after a
 * stable run), `delayMs` how long to wait before starting it again, `crashLoop` whether to say it is looping.
 */
export function nextRestart(policy, crashesBefore, ranMs) {
  const crashes = ranMs >= policy.stableAfterMs ? 1 : crashesBefore + 1;
  const delayMs = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (crashes - 1));
  return { crashes, delayMs, crashLoop: crashes >= policy.crashLoopAfter };
}

const seconds = (ms) => `${Number((ms / 1000).toFixed(2))} s`;

/**
 * @typedef {{ name: string, stopSignal?: NodeJS.Signals } & ({ command: string, args: string[], options: object,
 *   spawn?: undefined } | { spawn: () => import('node:child_process').ChildProcess })} Service
 */

export class Supervisor {
  /**
   * services: [{ name, command, args, options }] (options as for child_process.spawn; stdio is the supervisor's),
   * or [{ name, spawn }] where `spawn()` returns the service's process (a running one it already had, or a new one),
   * whose output goes where it chose; `stopSignal` (default SIGTERM) is what stop() sends it first.
   * say: one line of the supervisor's own log. write: a service's output, line by line, prefixed by its name.
   * @param {{ services: Service[],
   *   policy?: { firstDelayMs: number, maxDelayMs: number, stableAfterMs: number, crashLoopAfter: number },
   *   stopGraceMs?: number, say: (line: string) => void, write?: (line: string) => unknown }} options
   */
  constructor({
    services,
    policy = DEFAULT_RESTART_POLICY,
    stopGraceMs = DEFAULT_STOP_GRACE_MS,
    say,
    write = (line) => process.stdout.write(line),
  }) {
    this.services = [...services];
    this.policy = policy;
    this.stopGraceMs = stopGraceMs;
    this.say = say;
    this.write = write;
    this.prefixWidth = Math.max(0, ...services.map((s) => s.name.length)) + 1;
    /** name -> { child, startedAt, crashes, restartTimer, exited: Promise } */
    this.state = new Map(services.map((s) => [s.name, { crashes: 0 }]));
    this.stopping = false;
  }

  start() {
    for (const service of this.services) this.#spawn(service);
  }

  /** The pid of a service's current process, or undefined while it is down. */
  pid(name) {
    return this.state.get(name)?.child?.pid;
  }

  /**
   * Starts supervising one more service now (npm start's PostgreSQL and nats-server, each once it is up).
   * @param {Service} service
   */
  add(service) {
    this.services.push(service);
    this.state.set(service.name, { crashes: 0 });
    this.#spawn(service);
  }

  /** Stops every service: no restart from now on, its stop signal, then SIGKILL after the grace period. */
  async stop() {
    this.stopping = true;
    const running = [];
    for (const [name, state] of this.state) {
      if (state.restartTimer) {
        clearTimeout(state.restartTimer);
        state.restartTimer = undefined;
        this.say(`${name}: restart cancelled (stopping)`);
      }
      if (state.child) {
        state.child.kill(state.stopSignal ?? 'SIGTERM');
        running.push(state);
      }
    }
    const kill = setTimeout(() => {
      for (const state of running) {
        if (state.child) {
          this.say(`${state.name} did not stop within ${seconds(this.stopGraceMs)}; killing it`);
          state.child.kill('SIGKILL');
        }
      }
    }, this.stopGraceMs);
    await Promise.all(running.map((state) => state.exited));
    clearTimeout(kill);
  }

  #spawn(service) {
    const state = this.state.get(service.name);
    state.name = service.name;
    state.stopSignal = service.stopSignal;
    const child = service.spawn
      ? service.spawn()
      : spawn(service.command, service.args, { ...service.options, stdio: ['ignore', 'pipe', 'pipe'] });
    state.child = child;
    state.startedAt = Date.now();
    state.exitedAt = undefined;
    const prefix = `${service.name.padEnd(this.prefixWidth)}| `;
    const flushes = [child.stdout, child.stderr].filter(Boolean).map((stream) => {
      let buffered = '';
      stream.on('data', (chunk) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop();
        for (const line of lines) this.write(`${prefix}${line}\n`);
      });
      return () => buffered && this.write(`${prefix}${buffered}\n`);
    });
    state.exited = new Promise((resolve) => {
      let done = false;
      const onExit = (code, signal, error) => {
        if (done) return;
        done = true;
        flushes.forEach((flush) => flush());
        state.child = undefined;
        resolve();
        this.#exited(service, state, error ? `could not start: ${error.message}` : (signal ?? `exit ${code}`));
      };
      // 'close' comes after the child's output is read, so its last lines are logged before its exit. A process the
      // child left behind can hold the pipes open, though, and delay 'close' for ever: 'exit' bounds the wait.
      let closeWait;
      child.once('exit', (code, signal) => {
        state.exitedAt = Date.now();
        closeWait = setTimeout(() => onExit(code, signal), OUTPUT_AFTER_EXIT_MS);
      });
      child.once('close', (code, signal) => {
        clearTimeout(closeWait);
        onExit(code, signal);
      });
      child.once('error', (error) => onExit(null, null, error));
    });
  }

  #exited(service, state, how) {
    if (this.stopping) return;
    const ranMs = (state.exitedAt ?? Date.now()) - state.startedAt;
    const { crashes, delayMs, crashLoop } = nextRestart(this.policy, state.crashes, ranMs);
    state.crashes = crashes;
    if (crashLoop) {
      this.say(
        `${service.name} is crash-looping: it exited ${crashes} times in a row, each within ${seconds(this.policy.stableAfterMs)} of starting ` +
          `(last: ${how} after ${seconds(ranMs)}); see its lines above. Restarting it in ${seconds(delayMs)}; Ctrl-C stops everything.`,
      );
    } else {
      this.say(
        `${service.name} exited (${how}) after ${seconds(ranMs)}; restarting it in ${seconds(delayMs)} (restart ${crashes} in a row); the others keep running`,
      );
    }
    state.restartTimer = setTimeout(() => {
      state.restartTimer = undefined;
      if (this.stopping) return;
      this.#spawn(service);
      this.say(`${service.name} restarted (pid ${state.child?.pid ?? 'none'})`);
    }, delayMs);
  }
}
