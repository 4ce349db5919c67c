import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

/** What the trim reads from and does to the process; `processHeap()` is the real one, tests pass their own. */
export interface HeapControl {
  /** The share of the time since the last call the event loop spent working (0 to 1). */
  utilization(): number;
  /** Bytes the young generation (V8's new space) holds from the system, used or not. */
  youngGenerationBytes(): number;
  /** A scavenge: V8 shrinks the young generation when it finds the allocation rate low. */
  collectYoungGeneration(): void;
}

export interface IdleHeapTrimOptions {
  /** How often the process is looked at. */
  intervalMs: number;
  /** At or under this utilization an interval counts as idle. */
  idleUtilization: number;
  /** Idle intervals in a row before a trim: V8 shrinks only once its measured allocation rate has fallen. */
  idleIntervals: number;
  /** A young generation holding this much or less is left alone. */
  minYoungBytes: number;
  /** Trims tried per idle spell when the young generation does not shrink (V8 decides, not us). */
  triesPerIdleSpell: number;
}

/** 10 s without work before a trim (two intervals of 5 s); a young generation over 8 MiB is worth one. */
export const IDLE_HEAP_TRIM_DEFAULTS: IdleHeapTrimOptions = {
  intervalMs: 5_000,
  idleUtilization: 0.05,
  idleIntervals: 2,
  minYoungBytes: 8 * 1024 * 1024,
  triesPerIdleSpell: 3,
};

/** What a trim did, for the log line. */
export interface HeapTrimmed {
  beforeBytes: number;
  afterBytes: number;
}

/**
 * Gives an idle service's young generation back to the system (docs/adr/0106-idle-heap-trim.md). Under load V8 grows
 * the young generation to its bound (two 32 MiB semi-spaces with `--max-semi-space-size=32`, ADR 0050) and shrinks
 * it only in a collection that finds the allocation rate low; an idle service allocates so little that the next
 * scavenge is minutes away, so it keeps 64 MiB of empty young generation resident. After `idleIntervals` quiet
 * intervals in a row this runs one scavenge, which finds the rate low and shrinks it (to 1 MiB on Node 20). Busy
 * intervals reset the count; a young generation already small is left alone, so a service that stays idle is
 * trimmed once. Nothing here runs while the service works.
 */
export class IdleHeapTrim {
  private timer: NodeJS.Timeout | undefined;
  private idleInARow = 0;
  private triesThisSpell = 0;

  constructor(
    private readonly heap: HeapControl,
    private readonly onTrim: (trimmed: HeapTrimmed) => void = () => undefined,
    private readonly options: IdleHeapTrimOptions = IDLE_HEAP_TRIM_DEFAULTS,
  ) {}

  start(): this {
    this.heap.utilization();
    this.timer = setInterval(() => this.check(), this.options.intervalMs);
    // Never the reason the process stays up.
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look at the process (the timer's; tests call it directly). */
  check(): void {
    if (this.heap.utilization() > this.options.idleUtilization) {
      this.idleInARow = 0;
      this.triesThisSpell = 0;
      return;
    }
    this.idleInARow += 1;
    if (this.idleInARow < this.options.idleIntervals || this.triesThisSpell >= this.options.triesPerIdleSpell) return;
    const beforeBytes = this.heap.youngGenerationBytes();
    if (beforeBytes <= this.options.minYoungBytes) return;
    this.triesThisSpell += 1;
    this.heap.collectYoungGeneration();
    // Shrunk, the next look finds it small; kept (V8 still measured a high rate), the next quiet interval tries again.
    this.onTrim({ beforeBytes, afterBytes: this.heap.youngGenerationBytes() });
  }
}

/** V8's `gc` when the process runs with `--expose-gc` (deploy/service-node-flags.mjs), else undefined. */
type ExposedGc = (options: { type: 'minor' }) => void;

/** This process's heap, or undefined when V8's `gc` is not exposed (no `--expose-gc`): no trim can be made. */
export function processHeap(): HeapControl | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== 'function') return undefined;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return {
    utilization() {
      const now = performance.eventLoopUtilization();
      const since = performance.eventLoopUtilization(now, last);
      last = now;
      return since.utilization;
    },
    youngGenerationBytes: () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
    collectYoungGeneration: () => (gc as ExposedGc)({ type: 'minor' }),
  };
}
