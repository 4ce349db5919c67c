/**
 * What to send for a `GET /calls/{id}/recording` given its `Range` and `If-Range` headers (RFC 9110 section 14):
 * the whole file, one byte range, or 416. Multiple ranges and malformed or non-byte ranges are ignored (the
 * whole file is sent), as the RFC allows; browsers ask for one range when they seek.
 */
export type RangeDecision =
  | { kind: 'full' }
  /** `end` inclusive, as in `Content-Range`. */
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const BYTE_RANGE = /^\s*(\d*)\s*-\s*(\d*)\s*$/;

export function decideRange(
  range: string | undefined,
  size: number,
  validator?: { ifRange?: string; etag: string },
): RangeDecision {
  if (!range) return { kind: 'full' };
  // If-Range: the range applies only to the representation the client already holds part of.
  if (validator?.ifRange !== undefined && validator.ifRange.trim() !== quoteEtag(validator.etag))
    return { kind: 'full' };
  const unit = /^\s*bytes\s*=(.*)$/i.exec(range);
  if (!unit) return { kind: 'full' };
  const specs = unit[1].split(',');
  if (specs.length !== 1) return { kind: 'full' };
  const spec = BYTE_RANGE.exec(specs[0]);
  if (!spec) return { kind: 'full' };
  const [, first, last] = spec;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'full' };
  if (!Number.isSafeInteger(start) || start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: 'partial', start, end };
}

/** True when an `If-None-Match` header names this representation. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  // Weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored.
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === quoteEtag(etag));
}

export function quoteEtag(etag: string): string {
  return `"${etag}"`;
}
