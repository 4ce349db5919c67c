import { decideRange, etagMatches } from './recording-range';

describe('decideRange', () => {
  const size = 1000;

  it('sends the whole file when no Range is asked for', () => {
    expect(decideRange(undefined, size)).toEqual({ kind: 'full' });
  });

  it('sends the bytes from first to last, inclusive', () => {
    expect(decideRange('bytes=0-99', size)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(decideRange('bytes=500-', size)).toEqual({ kind: 'partial', start: 500, end: 999 });
    expect(decideRange('BYTES = 10 - 10', size)).toEqual({ kind: 'partial', start: 10, end: 10 });
  });

  it('cuts a range that runs past the end at the last byte', () => {
    expect(decideRange('bytes=900-5000', size)).toEqual({ kind: 'partial', start: 900, end: 999 });
  });

  it('sends the last N bytes for a suffix range, or the whole file when N is larger', () => {
    expect(decideRange('bytes=-100', size)).toEqual({ kind: 'partial', start: 900, end: 999 });
    expect(decideRange('bytes=-5000', size)).toEqual({ kind: 'partial', start: 0, end: 999 });
  });

  it('finds a range that starts at or past the end, or an empty suffix, unsatisfiable', () => {
    expect(decideRange('bytes=1000-', size)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=5000-6000', size)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=-0', size)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=99999999999999999999-', size)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it does not serve: several ranges, other units, malformed or reversed ranges', () => {
    for (const header of ['bytes=0-1,5-6', 'items=0-1', 'bytes=abc', 'bytes=-', 'bytes=50-10', 'bytes 0-10']) {
      expect(decideRange(header, size)).toEqual({ kind: 'full' });
    }
  });

  it('honours If-Range only when it names the current ETag', () => {
    expect(decideRange('bytes=0-9', size, { ifRange: '"abc"', etag: 'abc' })).toEqual({
      kind: 'partial',
      start: 0,
      end: 9,
    });
    expect(decideRange('bytes=0-9', size, { ifRange: '"old"', etag: 'abc' })).toEqual({ kind: 'full' });
    expect(decideRange('bytes=0-9', size, { ifRange: 'Wed, 21 Oct 2026 07:28:00 GMT', etag: 'abc' })).toEqual({
      kind: 'full',
    });
  });
});

describe('etagMatches', () => {
  it('matches the current ETag, weak or strong, in a list, or *', () => {
    expect(etagMatches('"abc"', 'abc')).toBe(true);
    expect(etagMatches('W/"abc"', 'abc')).toBe(true);
    expect(etagMatches('"x", "abc"', 'abc')).toBe(true);
    expect(etagMatches('*', 'abc')).toBe(true);
  });

  it('does not match another ETag or no header', () => {
    expect(etagMatches('"abd"', 'abc')).toBe(false);
    expect(etagMatches(undefined, 'abc')).toBe(false);
  });
});
