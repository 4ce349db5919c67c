import { types } from 'pg';
import { parseTimestamptz, TIMESTAMPTZ_OID } from './timestamptz';

const postgresDate = types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => Date | number | null;

function same(text: string): void {
  const expected = postgresDate(text);
  const actual = parseTimestamptz(text);
  if (expected instanceof Date && actual instanceof Date) {
    expect({ text, time: actual.getTime() }).toEqual({ text, time: expected.getTime() });
  } else {
    expect({ text, value: actual }).toEqual({ text, value: expected });
  }
}

describe('parseTimestamptz', () => {
  it('reads what PostgreSQL writes as postgres-date does, to the millisecond', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    for (let i = 0; i < 20_000; i += 1) {
      const year = 1000 + next(9000);
      const date = `${pad(year, 4)}-${pad(1 + next(12), 2)}-${pad(1 + next(28), 2)}`;
      const time = `${pad(next(24), 2)}:${pad(next(60), 2)}:${pad(next(60), 2)}`;
      const digits = next(7);
      const fraction = digits === 0 ? '' : `.${pad(next(10 ** digits), digits)}`;
      const zone = `${next(2) ? '+' : '-'}${pad(next(15), 2)}`;
      same(`${date} ${time}${fraction}${zone}`);
    }
  });

  it('gives the milliseconds postgres-date gives for every fraction of six digits', () => {
    for (let micros = 0; micros < 1_000_000; micros += 1) {
      const text = `2026-11-27 09:02:34.${String(micros).padStart(6, '0')}+00`;
      const got = (parseTimestamptz(text) as Date).getUTCMilliseconds();
      if (got !== (postgresDate(text) as Date).getUTCMilliseconds()) same(text);
    }
  });

  it('leaves every other text to postgres-date', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '2026-11-27 09:02:34+05:30',
      '2026-11-27 09:02:34.5-03:30:15',
      '0099-01-01 00:00:00+00',
      '0500-06-01 12:00:00+00',
      '2026-11-27 09:02:34+00 BC',
      '2026-11-27 09:02:34',
      '2026-11-27',
      '12026-11-27 09:02:34+00',
    ]) {
      same(text);
    }
  });
});
