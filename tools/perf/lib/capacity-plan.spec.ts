import {
  accountId,
  accountOfNumber,
  bytesText,
  conversationOf,
  exportChunk,
  GIB,
  layout,
  numberId,
  numberOfCall,
  perMillion,
  phoneNumber,
  retentionDaysExpiring,
  sizesTable,
  spanDays,
} from './capacity-plan.mjs';

const deployment = layout({ numbers: 100_000, accounts: 10_000, largeNumbers: 1000, largeShare: 0.1 });

describe("the capacity seed's layout", () => {
  it('gives the large account the first numbers and every other account about numbers/accounts', () => {
    expect(accountOfNumber(deployment, 0)).toBe(0);
    expect(accountOfNumber(deployment, 999)).toBe(0);
    expect(accountOfNumber(deployment, 1000)).toBe(1);
    expect(accountOfNumber(deployment, 99_999)).toBe(9999);
    const perAccount = new Map<number, number>();
    for (let n = 1000; n < 100_000; n += 1) {
      const a = accountOfNumber(deployment, n);
      perAccount.set(a, (perAccount.get(a) ?? 0) + 1);
    }
    expect(perAccount.size).toBe(9999);
    expect(Math.min(...perAccount.values())).toBeGreaterThanOrEqual(9);
    expect(Math.max(...perAccount.values())).toBeLessThanOrEqual(10);
  });

  it("sends the large account's share of calls to its numbers, the rest skewed towards the first numbers", () => {
    expect(numberOfCall(deployment, 0.05, 0.5)).toBe(500);
    expect(numberOfCall(deployment, 0.05, 0.999_999)).toBe(999);
    expect(numberOfCall(deployment, 0.5, 0)).toBe(1000);
    expect(numberOfCall(deployment, 0.5, 0.999_999)).toBe(99_999);
    // u^2: half the draws land on the first quarter of the other numbers.
    expect(numberOfCall(deployment, 0.5, 0.5)).toBe(1000 + Math.floor(99_000 * 0.25));
  });

  it('refuses layouts that leave an account without a number', () => {
    expect(() => layout({ numbers: 100, accounts: 200, largeNumbers: 10, largeShare: 0.1 })).toThrow(RangeError);
    expect(() => layout({ numbers: 100, accounts: 10, largeNumbers: 100, largeShare: 0.1 })).toThrow(RangeError);
    expect(() => layout({ numbers: 100, accounts: 10, largeNumbers: 10, largeShare: 1 })).toThrow(RangeError);
  });

  it('writes ids in the forms the contracts accept', () => {
    expect(accountId(0)).toMatch(/^acct_(?:test_)?[0-9a-z]{20}$/);
    expect(accountId(9999)).toBe('acct_00000000000000009999');
    expect(numberId(0)).toBe('num_1');
    expect(phoneNumber(99_999)).toBe('+12025649999');
  });

  it("spreads calls over the pool's conversations", () => {
    const seen = new Set<number>();
    for (let k = 0; k < 10_000; k += 1) {
      const conv = conversationOf(k, 1000);
      expect(conv).toBeGreaterThanOrEqual(0);
      expect(conv).toBeLessThan(1000);
      seen.add(conv);
    }
    expect(seen.size).toBeGreaterThan(990);
    // Past 2^53 / 2654435761 a Number product would lose digits; BigInt keeps them.
    expect(conversationOf(10_000_000, 200_000)).toBe(Number((10_000_000n * 2_654_435_761n) % 4_294_967_296n) % 200_000);
  });
});

describe('retention that lets one month expire', () => {
  it('keeps all but the oldest days of the span', () => {
    expect(spanDays(12)).toBe(365);
    expect(retentionDaysExpiring(365, 30)).toBe(335);
    expect(retentionDaysExpiring(365, 60)).toBe(305);
    expect(() => retentionDaysExpiring(365, 365)).toThrow(RangeError);
  });
});

describe('what the measurements come to', () => {
  it('scales sizes linearly per million calls, and prints them in MiB, GiB or TiB', () => {
    expect(perMillion(2 * GIB, 200_000)).toBe(10 * GIB);
    expect(perMillion(1, 0)).toBeNaN();
    expect(bytesText(512 * 2 ** 20)).toBe('512 MiB');
    expect(bytesText(1.5 * GIB)).toBe('1.5 GiB');
    expect(bytesText(2048 * GIB)).toBe('2.00 TiB');
    expect(bytesText(NaN)).toBe('-');
  });

  it("tables each relation's parts and the database, per million calls", () => {
    const calls = { total: 3 * GIB, heap: 2 * GIB, toast: 0, indexes: GIB, index: { calls_pkey: GIB } };
    const text = sizesTable({ tables: { calls }, database: 4 * GIB }, ['calls'], 2_000_000);
    expect(text.split('\n').slice(2)).toEqual([
      '| calls (total)  | 3.0 GiB |           1.5 GiB |',
      '|   heap         | 2.0 GiB |           1.0 GiB |',
      '|   TOAST        |   0 MiB |             0 MiB |',
      '|   indexes      | 1.0 GiB |           512 MiB |',
      '|     calls_pkey | 1.0 GiB |           512 MiB |',
      '| database       | 4.0 GiB |           2.0 GiB |',
    ]);
  });
});

describe("the export walk's chunks", () => {
  const call = (id: string, words = 0) => ({ id, summary: 'x'.repeat(words) });
  const line = (row: object, transcript: object[] = []) => JSON.stringify({ ...row, transcript }).length + 1;

  it('keep the calls that fit, their turns in their lines, and go on after the last one kept', () => {
    const page = [call('a'), call('b'), call('c')];
    const turns = [{ call_id: 'b', role: 'caller', text: 'Hi' }];
    const all = exportChunk(page, turns, { maxRows: 2, maxBytes: 10_000 });
    expect(all).toMatchObject({ calls: 2, turns: 1, last: page[1], more: true });
    expect(all.bytes).toBe(line(page[0]) + line(page[1], [{ role: 'caller', text: 'Hi' }]));
    const cut = exportChunk(page, [], { maxRows: 3, maxBytes: line(page[0]) + 1 });
    expect(cut).toMatchObject({ calls: 1, last: page[0], more: true });
    expect(exportChunk(page.slice(0, 2), [], { maxRows: 2, maxBytes: 10_000 }).more).toBe(false);
  });

  it('keep a first call larger than the bound, so the walk always moves on', () => {
    expect(exportChunk([call('a', 100), call('b')], [], { maxRows: 2, maxBytes: 10 })).toMatchObject({
      calls: 1,
      more: true,
    });
    expect(exportChunk([], [], { maxRows: 2, maxBytes: 10 })).toMatchObject({ calls: 0, more: false });
  });
});
