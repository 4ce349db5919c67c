import { IDLE_HEAP_TRIM_DEFAULTS, IdleHeapTrim, processHeap, type HeapControl } from './idle-heap-trim';

const MiB = 1024 * 1024;

/** A heap whose utilization the test sets per interval; a scavenge shrinks it to `shrinksTo` (V8's decision). */
function fakeHeap(youngMiB: number, shrinksTo = 1) {
  const state = { utilization: 0, youngBytes: youngMiB * MiB, scavenges: 0, shrinksTo: shrinksTo * MiB };
  const heap: HeapControl = {
    utilization: () => state.utilization,
    youngGenerationBytes: () => state.youngBytes,
    collectYoungGeneration: () => {
      state.scavenges += 1;
      state.youngBytes = Math.min(state.youngBytes, state.shrinksTo);
    },
  };
  return { state, heap };
}

describe('IdleHeapTrim', () => {
  afterEach(() => jest.useRealTimers());

  it('trims once the service has been idle for two intervals, and only once while it stays idle', () => {
    const { state, heap } = fakeHeap(64);
    const trims: Array<{ beforeBytes: number; afterBytes: number }> = [];
    const trim = new IdleHeapTrim(heap, (t) => trims.push(t));

    trim.check();
    expect(state.scavenges).toBe(0);
    trim.check();
    expect(state.scavenges).toBe(1);
    expect(trims).toEqual([{ beforeBytes: 64 * MiB, afterBytes: 1 * MiB }]);
    for (let i = 0; i < 10; i += 1) trim.check();
    expect(state.scavenges).toBe(1);
  });

  it('never trims a busy service, and a busy interval starts the idle count again', () => {
    const { state, heap } = fakeHeap(64);
    const trim = new IdleHeapTrim(heap);

    state.utilization = 0.8;
    for (let i = 0; i < 5; i += 1) trim.check();
    expect(state.scavenges).toBe(0);
    state.utilization = 0.01;
    trim.check();
    state.utilization = 0.06;
    trim.check();
    state.utilization = 0.01;
    trim.check();
    expect(state.scavenges).toBe(0);
    trim.check();
    expect(state.scavenges).toBe(1);
  });

  it('trims again after the next busy spell grows the young generation', () => {
    const { state, heap } = fakeHeap(64);
    const trim = new IdleHeapTrim(heap);
    trim.check();
    trim.check();
    expect(state.scavenges).toBe(1);

    state.utilization = 0.9;
    state.youngBytes = 64 * MiB;
    trim.check();
    state.utilization = 0;
    trim.check();
    trim.check();
    expect(state.scavenges).toBe(2);
    expect(state.youngBytes).toBe(1 * MiB);
  });

  it('leaves a young generation of 8 MiB or less alone', () => {
    const { state, heap } = fakeHeap(8);
    const trim = new IdleHeapTrim(heap);
    for (let i = 0; i < 5; i += 1) trim.check();
    expect(state.scavenges).toBe(0);
  });

  it('tries three times per idle spell when V8 keeps the young generation, then waits for the next spell', () => {
    const { state, heap } = fakeHeap(64, 64);
    const trim = new IdleHeapTrim(heap);
    for (let i = 0; i < 10; i += 1) trim.check();
    expect(state.scavenges).toBe(IDLE_HEAP_TRIM_DEFAULTS.triesPerIdleSpell);

    state.utilization = 0.5;
    trim.check();
    state.utilization = 0;
    for (let i = 0; i < 10; i += 1) trim.check();
    expect(state.scavenges).toBe(2 * IDLE_HEAP_TRIM_DEFAULTS.triesPerIdleSpell);
  });

  it('looks every interval once started, and not after stop()', () => {
    jest.useFakeTimers();
    const { state, heap } = fakeHeap(64);
    const trim = new IdleHeapTrim(heap).start();

    jest.advanceTimersByTime(IDLE_HEAP_TRIM_DEFAULTS.intervalMs * 2 - 1);
    expect(state.scavenges).toBe(0);
    jest.advanceTimersByTime(1);
    expect(state.scavenges).toBe(1);

    trim.stop();
    state.youngBytes = 64 * MiB;
    jest.advanceTimersByTime(IDLE_HEAP_TRIM_DEFAULTS.intervalMs * 10);
    expect(state.scavenges).toBe(1);
  });

  it('has no heap to trim when V8 does not expose gc (no --expose-gc)', () => {
    const exposed = (globalThis as { gc?: unknown }).gc;
    delete (globalThis as { gc?: unknown }).gc;
    try {
      expect(processHeap()).toBeUndefined();
    } finally {
      if (exposed) (globalThis as { gc?: unknown }).gc = exposed;
    }
  });
});
