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

/** The first candidate not in `taken`, or undefined when the area code is full. */
export function firstFreeNumber(areaCode: string, taken: ReadonlySet<string>): string | undefined {
  for (const candidate of candidateNumbers(areaCode)) {
    if (!taken.has(candidate)) return candidate;
  }
  return undefined;
}
