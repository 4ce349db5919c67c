import { PollingWorker } from './polling-worker';

/** A pass that records when it ran and waits until the test lets it finish. */
function gatedPasses() {
  const started: number[] = [];
  const gates: Array<() => void> = [];
  const pass = () =>
    new Promise<void>((resolve) => {
      started.push(started.length + 1);
      gates.push(resolve);
    });
  const finish = async () => {
    gates.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, pass, finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('PollingWorker', () => {
  afterEach(() => jest.useRealTimers());

  it('waits one interval before the first pass, then runs one interval after each pass ends', async () => {
    jest.useFakeTimers();
    const passes: number[] = [];
    const worker = new PollingWorker({
      intervalMs: 1_000,
      pass: async () => void passes.push(Date.now()),
      onError: () => undefined,
    });
    worker.start();
    await jest.advanceTimersByTimeAsync(999);
    expect(passes).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(passes).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(passes).toHaveLength(2);
    await worker.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(passes).toHaveLength(2);
  });

  it('runs the first pass at start when asked to', async () => {
    let passes = 0;
    const worker = new PollingWorker({
      intervalMs: 60_000,
      pass: async () => void passes++,
      onError: () => undefined,
      passAtStart: true,
    });
    worker.start();
    await tick();
    expect(passes).toBe(1);
    await worker.stop();
  });

  it('reports a failed pass and keeps polling', async () => {
    jest.useFakeTimers();
    const errors: unknown[] = [];
    let passes = 0;
    const worker = new PollingWorker({
      intervalMs: 100,
      pass: async () => {
        passes++;
        if (passes === 1) throw new Error('database down');
      },
      onError: (error) => errors.push(error),
    });
    worker.start();
    await jest.advanceTimersByTimeAsync(200);
    expect(errors).toEqual([new Error('database down')]);
    expect(passes).toBe(2);
    await worker.stop();
  });

  it('kick() during a pass resolves only after one more pass, shared by every caller', async () => {
    const { started, pass, finish } = gatedPasses();
    const worker = new PollingWorker({ intervalMs: 60_000, pass, onError: () => undefined });
    worker.start();
    const first = worker.kick();
    await tick();
    expect(started).toEqual([1]);

    let secondDone = false;
    const second = worker.kick().then(() => (secondDone = true));
    const third = worker.kick();
    await finish();
    await first;
    expect(started).toEqual([1, 2]);
    expect(secondDone).toBe(false);
    await finish();
    await Promise.all([second, third]);
    expect(started).toEqual([1, 2]);
    await worker.stop();
  });

  it('stop() waits for the pass under way and kick() does nothing once stopped', async () => {
    const { started, pass, finish } = gatedPasses();
    const worker = new PollingWorker({ intervalMs: 60_000, pass, onError: () => undefined });
    worker.start();
    void worker.kick();
    await tick();
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await tick();
    expect(stopped).toBe(false);
    await finish();
    await stopping;
    expect(stopped).toBe(true);
    await worker.kick();
    expect(started).toEqual([1]);
  });
});
