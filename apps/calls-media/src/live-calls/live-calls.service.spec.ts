import { knownDuration } from './live-calls.service';

describe('knownDuration', () => {
  const started_at = new Date('2026-12-02T10:00:00Z');
  const at = (seconds: number) => new Date(started_at.getTime() + seconds * 1000);

  it('is the time from the start to the last event heard, in whole seconds', () => {
    expect(knownDuration({ started_at, last_heard_at: at(95.8), max_call_minutes: 60 })).toBe(95);
    expect(knownDuration({ started_at, last_heard_at: started_at, max_call_minutes: 60 })).toBe(0);
  });

  it("is never more than the number's max_call_minutes: a start heard late proves no longer call", () => {
    expect(knownDuration({ started_at, last_heard_at: at(7200), max_call_minutes: 60 })).toBe(3600);
    expect(knownDuration({ started_at, last_heard_at: at(7200), max_call_minutes: 5 })).toBe(300);
  });

  it('is never negative (a provider clock ahead of ours)', () => {
    expect(knownDuration({ started_at, last_heard_at: at(-3), max_call_minutes: 60 })).toBe(0);
  });
});
