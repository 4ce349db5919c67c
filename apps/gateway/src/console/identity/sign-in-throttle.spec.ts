import { ServiceError } from '@switchboard/contracts';
import { SIGN_IN_THROTTLE, clientScope, emailScope, throttledError, throttledForSeconds } from './sign-in-throttle';

describe('sign-in throttling', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  const startedAgo = (seconds: number) => new Date(now - seconds * 1000);

  it('lets sign-in through below the limits', () => {
    expect(throttledForSeconds([], now)).toBe(0);
    expect(
      throttledForSeconds(
        [
          {
            scope: emailScope('a@example.com'),
            window_start: startedAgo(60),
            failures: SIGN_IN_THROTTLE.maxFailuresPerEmail - 1,
          },
          {
            scope: clientScope('203.0.113.7'),
            window_start: startedAgo(60),
            failures: SIGN_IN_THROTTLE.maxFailuresPerClient - 1,
          },
        ],
        now,
      ),
    ).toBe(0);
  });

  it('blocks an email address at 5 failures until its window ends', () => {
    const window = { scope: emailScope('A@Example.com'), window_start: startedAgo(60), failures: 5 };
    expect(window.scope).toBe('email:a@example.com');
    expect(throttledForSeconds([window], now)).toBe(SIGN_IN_THROTTLE.windowSeconds - 60);
  });

  it('blocks a client address only at 20 failures, and waits for the longer of the two', () => {
    const client = { scope: clientScope('203.0.113.7'), window_start: startedAgo(10), failures: 19 };
    expect(throttledForSeconds([client], now)).toBe(0);
    const email = { scope: emailScope('a@example.com'), window_start: startedAgo(600), failures: 7 };
    expect(throttledForSeconds([{ ...client, failures: 20 }, email], now)).toBe(SIGN_IN_THROTTLE.windowSeconds - 10);
  });

  it('forgets a window that has ended', () => {
    expect(
      throttledForSeconds(
        [
          {
            scope: emailScope('a@example.com'),
            window_start: startedAgo(SIGN_IN_THROTTLE.windowSeconds),
            failures: 50,
          },
        ],
        now,
      ),
    ).toBe(0);
  });

  it('answers 429 sign_in_throttled with Retry-After and a message in minutes', () => {
    const error = throttledError(61);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.status).toBe(429);
    expect(error.code).toBe('sign_in_throttled');
    expect(error.retryAfter).toBe(61);
    expect(error.message).toMatch(/try again in 2 minutes/);
  });
});
