import { HostLimiter, type HostSlot } from './host-limiter';

const HOST = 'slow.example:443';

/** The slots of `acquire` calls resolved so far, in the order they resolved. */
function tracked(limiter: HostLimiter, host: string) {
  const started: string[] = [];
  const acquire = (name: string): Promise<HostSlot | undefined> =>
    limiter.acquire(host).then((slot) => {
      if (slot) started.push(name);
      return slot;
    });
  return { started, acquire };
}

describe('HostLimiter', () => {
  afterEach(() => jest.useRealTimers());

  it('gives a host at most its share of slots and takes them back on release', async () => {
    const limiter = new HostLimiter({ hostConcurrency: 2, connectionReuseWaitMs: 0 });
    const first = await limiter.acquire(HOST);
    const second = await limiter.acquire(HOST);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    await expect(limiter.acquire(HOST)).resolves.toBeUndefined();
    first!.release();
    await expect(limiter.acquire(HOST)).resolves.toBeDefined();
  });

  it('keeps one busy host from taking the slots of another', async () => {
    const limiter = new HostLimiter({ hostConcurrency: 1, connectionReuseWaitMs: 100 });
    await expect(limiter.acquire(HOST)).resolves.toBeDefined();
    await expect(limiter.acquire('fast.example:443')).resolves.toBeDefined();
  });

  it('ignores a second release of the same slot', async () => {
    const limiter = new HostLimiter({ hostConcurrency: 1, connectionReuseWaitMs: 0 });
    const slot = (await limiter.acquire('a:443'))!;
    slot.release();
    slot.release();
    await expect(limiter.acquire('a:443')).resolves.toBeDefined();
    await expect(limiter.acquire('a:443')).resolves.toBeUndefined();
  });

  it('sends the next attempt to a host as the one on the wire ends, in order, to reuse its connection', async () => {
    jest.useFakeTimers();
    const limiter = new HostLimiter({ hostConcurrency: 4, connectionReuseWaitMs: 100 });
    const { started, acquire } = tracked(limiter, HOST);
    const first = (await acquire('first'))!;
    const second = acquire('second');
    const third = acquire('third');
    await jest.advanceTimersByTimeAsync(50);
    expect(started).toEqual(['first']);

    first.release();
    const secondSlot = (await second)!;
    expect(started).toEqual(['first', 'second']);
    secondSlot.release();
    await third;
    expect(started).toEqual(['first', 'second', 'third']);
  });

  it('sends a waiting attempt on a connection of its own once the wait is over', async () => {
    jest.useFakeTimers();
    const limiter = new HostLimiter({ hostConcurrency: 4, connectionReuseWaitMs: 100 });
    const { started, acquire } = tracked(limiter, HOST);
    const first = (await acquire('first'))!;
    const second = acquire('second');
    await jest.advanceTimersByTimeAsync(99);
    expect(started).toEqual(['first']);
    await jest.advanceTimersByTimeAsync(1);
    expect(started).toEqual(['first', 'second']);

    // Both on the wire now: a third waits for either, and the first to end lets it go.
    const third = acquire('third');
    (await second)!.release();
    await third;
    expect(started).toEqual(['first', 'second', 'third']);
    first.release();
  });

  it('counts a waiting attempt in the host share, so waiting never lets more than the share through', async () => {
    jest.useFakeTimers();
    const limiter = new HostLimiter({ hostConcurrency: 2, connectionReuseWaitMs: 100 });
    const first = await limiter.acquire(HOST);
    const waiting = limiter.acquire(HOST);
    await expect(limiter.acquire(HOST)).resolves.toBeUndefined();
    await jest.advanceTimersByTimeAsync(100);
    expect(await waiting).toBeDefined();
    await expect(limiter.acquire(HOST)).resolves.toBeUndefined();
    first!.release();
    const next = limiter.acquire(HOST);
    await jest.advanceTimersByTimeAsync(100);
    await expect(next).resolves.toBeDefined();
  });

  it('never waits with WEBHOOK_CONNECTION_REUSE_WAIT_MS=0', async () => {
    const limiter = new HostLimiter({ hostConcurrency: 3, connectionReuseWaitMs: 0 });
    const slots = await Promise.all([limiter.acquire(HOST), limiter.acquire(HOST), limiter.acquire(HOST)]);
    expect(slots.every(Boolean)).toBe(true);
  });

  it('limits by host and port, whatever the case and path', () => {
    expect(HostLimiter.keyOf('https://Hooks.Example.com/a?x=1')).toBe('hooks.example.com:443');
    expect(HostLimiter.keyOf('https://hooks.example.com:8443/b')).toBe('hooks.example.com:8443');
  });
});
