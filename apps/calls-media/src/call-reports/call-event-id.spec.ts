import { callCompletedEventId } from './call-event-id';
import { newCallSid } from '../telephony/call-sid';

describe('callCompletedEventId', () => {
  it('derives the same version-5 UUID from the same call SID every time', () => {
    const sid = newCallSid();
    const id = callCompletedEventId(sid);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(callCompletedEventId(sid)).toBe(id);
  });

  it('gives different calls different ids', () => {
    const ids = new Set(Array.from({ length: 200 }, () => callCompletedEventId(newCallSid())));
    expect(ids.size).toBe(200);
  });
});

describe('newCallSid', () => {
  it('writes a SID as providers do: CA and 32 hex digits', () => {
    expect(newCallSid()).toMatch(/^CA[0-9a-f]{32}$/);
  });
});
