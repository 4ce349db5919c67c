import { fieldsOf } from './api';
import { describeError } from './errors';
import {
  dayStart,
  isWebUrl,
  minutesToSeconds,
  normalizeCaller,
  parseAllowlist,
  parsePhotoUrls,
  safeNext,
  secondsToMinutes,
  toCents,
} from './input';

describe("the console's reading of what people type", () => {
  it('reads an IP allowlist separated by commas, spaces or lines, and empty as none', () => {
    expect(parseAllowlist(' 203.0.113.7,198.51.100.0/24\n10.0.0.1  ')).toEqual([
      '203.0.113.7',
      '198.51.100.0/24',
      '10.0.0.1',
    ]);
    expect(parseAllowlist('  \n ')).toEqual([]);
  });

  it('reads dollars as whole cents without floating-point error, and refuses what is not an amount', () => {
    expect(toCents('12.5')).toBe(1250);
    expect(toCents('$25.50')).toBe(2550);
    expect(toCents('0.29')).toBe(29);
    expect(toCents('10')).toBe(1000);
    for (const bad of ['', '-5', '1.234', 'ten', '1e3', '12,50']) expect(toCents(bad)).toBeUndefined();
  });

  it("takes a date range's end as the start of the next day, so the last day is included", () => {
    const start = new Date(dayStart('2026-11-20')!);
    const end = new Date(dayStart('2026-11-20', true)!);
    expect(end.getTime() - start.getTime()).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(dayStart('20/11/2026')).toBeUndefined();
  });

  it("reads a call length in minutes as the API's whole seconds, and shows seconds back in minutes", () => {
    expect(minutesToSeconds('2')).toBe(120);
    expect(minutesToSeconds(' 1.5 ')).toBe(90);
    expect(minutesToSeconds('0,5')).toBe(30);
    expect(minutesToSeconds('.25')).toBe(15);
    expect(minutesToSeconds('')).toBe('');
    for (const bad of ['-1', 'two', '1e3', '1.234', '1234567']) expect(minutesToSeconds(bad)).toBeUndefined();
    expect(secondsToMinutes('90')).toBe('1.5');
    expect(secondsToMinutes('')).toBe('');
    expect(secondsToMinutes('abc')).toBe('');
    // Whatever whole seconds the address holds, the field shows minutes that read back as the same seconds.
    for (let seconds = 0; seconds <= 7_200; seconds++)
      expect([seconds, minutesToSeconds(secondsToMinutes(String(seconds)))]).toEqual([seconds, seconds]);
  });

  it("reads a caller's number as pasted in the E.164 form the API filters by", () => {
    expect(normalizeCaller(' +1 (415) 555-0199 ')).toBe('+14155550199');
    expect(normalizeCaller('+44.20.7946.0958')).toBe('+442079460958');
    expect(normalizeCaller('Anonymous')).toBe('anonymous');
    // Not a number: left as typed, for the API to refuse in its own words.
    expect(normalizeCaller('bob')).toBe('bob');
  });

  it('goes after sign-in only to a path inside the console', () => {
    expect(safeNext('/calls/CA1?x=1')).toBe('/calls/CA1?x=1');
    for (const bad of [null, '//evil.example/x', 'https://evil.example', '/\\evil.example', '/sign-in'])
      expect(safeNext(bad)).toBe('/calls');
  });
});

describe("the console's reading of the server's errors", () => {
  it('places each problem of a 400 next to the field it names', () => {
    expect(
      fieldsOf({ message: 'email must be an email address; role must be one of owner, developer, viewer' }),
    ).toEqual({
      email: 'email must be an email address.',
      role: 'role must be one of owner, developer, viewer.',
    });
    expect(fieldsOf({ message: 'ip_allowlist.0 must be an IP address or CIDR range' })).toEqual({
      ip_allowlist: 'ip_allowlist.0 must be an IP address or CIDR range.',
    });
    expect(fieldsOf({ message: 'auto_top_up.amount_cents must not be less than 500' })).toEqual({
      amount_cents: 'auto_top_up.amount_cents must not be less than 500.',
    });
    expect(fieldsOf({ field: 'webhook_url', message: 'The URL must use https.' })).toEqual({
      webhook_url: 'The URL must use https.',
    });
    expect(fieldsOf({ message: 'The request body must be a JSON object.' })).toBeUndefined();
  });

  it('says what a code means, keeps the role and action of a 403, and says how long to wait', () => {
    expect(describeError(409, 'key_limit', 'x')).toMatch(/at most 5 active keys/);
    expect(describeError(403, 'forbidden', 'A viewer user cannot change auto top-up; only an owner can')).toBe(
      'Not allowed: A viewer user cannot change auto top-up; only an owner can.',
    );
    expect(describeError(429, 'sign_in_throttled', '', 60)).toBe(
      'Too many sign-in attempts. Wait a moment before trying again (about 60 s).',
    );
    expect(describeError(502, 'bad_gateway', '')).toBe('The server could not do this (502). Try again in a moment.');
    expect(describeError(0, 'network', '')).toMatch(/could not reach the server/);
  });
});

describe('parsePhotoUrls', () => {
  it('reads one URL per line or per space, dropping blanks, in order', () => {
    expect(parsePhotoUrls('  https://a.example/1.jpg\n\nhttps://a.example/2.jpg https://a.example/3.jpg \n')).toEqual([
      'https://a.example/1.jpg',
      'https://a.example/2.jpg',
      'https://a.example/3.jpg',
    ]);
    expect(parsePhotoUrls('  \n ')).toEqual([]);
  });
});

describe('isWebUrl', () => {
  it('links only https:// and http:// photo URLs', () => {
    expect(isWebUrl('https://a.example/1.jpg')).toBe(true);
    expect(isWebUrl('http://a.example/1.jpg')).toBe(true);
    for (const url of ['javascript:alert(1)', ' javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>x</b>'])
      expect({ url, link: isWebUrl(url) }).toEqual({ url, link: false });
    for (const url of ['ftp://a.example/1.jpg', '/relative.jpg', '', 'not a url'])
      expect({ url, link: isWebUrl(url) }).toEqual({ url, link: false });
  });
});
