import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const LOCAL_TYPES = new Set(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE']);

/** A local US number (not toll-free, premium or personal) by libphonenumber's full metadata. */
export function isLocalUsNumber(e164: string): boolean {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed || !parsed.isValid() || parsed.country !== 'US') return false;
  const type = parsed.getType();
  return type !== undefined && LOCAL_TYPES.has(type);
}

/**
 * The numbers the simulated provider sells in an area code, in the order it sells them: first the NANP's
 * fictional range 555-0100…555-0199, then the rest of exchange 555 (never 555-1212, directory assistance).
 * Each is a valid local US number for libphonenumber; an area code with none (unassigned, toll-free) sells none.
 */
export function* candidateNumbers(areaCode: string): Generator<string> {
  if (!isLocalUsNumber(`+1${areaCode}5550100`)) return;
  const order = [...range(100, 200), ...range(200, 10_000), ...range(0, 100)];
  for (const line of order) {
    if (line === 1212) continue;
    const e164 = `+1${areaCode}555${String(line).padStart(4, '0')}`;
    if (isLocalUsNumber(e164)) yield e164;
  }
}

function* range(from: number, to: number): Generator<number> {
  for (let i = from; i < to; i++) yield i;
}

/** Candidates asked about at once: one statement answers for the first thousand numbers sold in an area code. */
export const CANDIDATE_CHUNK = 1024;

/** Area codes whose candidates are kept (each at most 9,999 numbers, about 0.5 MB when all were walked). */
const KEPT_AREA_CODES = 32;

/**
 * An area code's candidates, checked once and kept: libphonenumber's check costs about 18 us and allocates, and a
 * purchase used to check every candidate up to the first free one (a thousand checks, and a thousand sold rows
 * read, for an area code's thousandth number). The walk goes only as far as purchases have needed.
 */
class CandidateWalk {
  private readonly found: string[] = [];
  private readonly walk: Iterator<string>;
  private ended = false;

  constructor(areaCode: string) {
    this.walk = candidateNumbers(areaCode);
  }

  slice(from: number, count: number): string[] {
    while (!this.ended && this.found.length < from + count) {
      const next = this.walk.next();
      if (next.done) this.ended = true;
      else this.found.push(next.value);
    }
    return this.found.slice(from, from + count);
  }
}

/** The kept walks, the one used longest ago first. */
const walks = new Map<string, CandidateWalk>();

/** Up to `count` of the area code's candidates, from position `from` of the order they are sold in. */
export function candidatesOf(areaCode: string, from: number, count: number): string[] {
  let walk = walks.get(areaCode);
  if (walk) walks.delete(areaCode);
  else walk = new CandidateWalk(areaCode);
  walks.set(areaCode, walk);
  if (walks.size > KEPT_AREA_CODES) walks.delete(walks.keys().next().value as string);
  return walk.slice(from, count);
}

/**
 * The first candidate that is not sold, or undefined when the area code is full. `firstUnsold` answers for a chunk
 * of candidates (in order) with the first of them not sold, so the seller reads one row per chunk instead of every
 * number it has sold.
 */
export async function firstFreeNumber(
  areaCode: string,
  firstUnsold: (candidates: readonly string[]) => Promise<string | undefined>,
): Promise<string | undefined> {
  for (let from = 0; ; from += CANDIDATE_CHUNK) {
    const candidates = candidatesOf(areaCode, from, CANDIDATE_CHUNK);
    if (candidates.length === 0) return undefined;
    const free = await firstUnsold(candidates);
    if (free !== undefined) return free;
  }
}
