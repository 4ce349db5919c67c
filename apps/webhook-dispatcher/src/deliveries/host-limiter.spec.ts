import { HostLimiter } from './host-limiter';

describe('HostLimiter', () => {
  it('gives a host at most its share of slots and takes them back on release', () => {
    const limiter = new HostLimiter({ hostConcurrency: 2 });
    const first = limiter.tryAcquire('slow.example:443');
    const second = limiter.tryAcquire('slow.example:443');
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(limiter.tryAcquire('slow.example:443')).toBeUndefined();
    first!.release();
    expect(limiter.tryAcquire('slow.example:443')).toBeDefined();
  });

  it('keeps one busy host from taking the slots of another', () => {
    const limiter = new HostLimiter({ hostConcurrency: 1 });
    expect(limiter.tryAcquire('slow.example:443')).toBeDefined();
    expect(limiter.tryAcquire('fast.example:443')).toBeDefined();
  });

  it('ignores a second release of the same slot', () => {
    const limiter = new HostLimiter({ hostConcurrency: 1 });
    const slot = limiter.tryAcquire('a:443')!;
    slot.release();
    slot.release();
    expect(limiter.tryAcquire('a:443')).toBeDefined();
    expect(limiter.tryAcquire('a:443')).toBeUndefined();
  });

  it('limits by host and port, whatever the case and path', () => {
    expect(HostLimiter.keyOf('https://Hooks.Example.com/a?x=1')).toBe('hooks.example.com:443');
    expect(HostLimiter.keyOf('https://hooks.example.com:8443/b')).toBe('hooks.example.com:8443');
  });
});
