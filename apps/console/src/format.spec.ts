import {
  formatCentsAsDollars,
  formatMillicentsAsDollars,
  talkMinutes as serverTalkMinutes,
  wholeCents,
} from '@switchboard/contracts';
import { formatCents, formatMillicents, formatMinutes, talkMinutes } from './format';

/** Money and talk time as the console writes them, held to the server's formatter (docs/money-and-minutes.md). */
describe('money and minutes: the console and the services write the same text', () => {
  it('shows 6373.617 cents as $63.73 in the balance, in the ledger and on the server', () => {
    const ledgerMillicents = 6_373_617;
    // The balance arrives as `balance_cents`, the server's whole cents of the same millicents.
    const balanceCents = Number(wholeCents(BigInt(ledgerMillicents)));
    expect(formatCents(balanceCents)).toBe('$63.73');
    expect(formatMillicents(ledgerMillicents)).toBe('$63.73');
    expect(formatMillicentsAsDollars(BigInt(ledgerMillicents))).toBe('$63.73');
  });

  it('rounds every amount down to the cent, below zero too, the same on both sides', () => {
    const cases: [number, string][] = [
      [0, '$0.00'],
      [999, '$0.00'],
      [1_000, '$0.01'],
      [-1, '-$0.01'],
      [-817, '-$0.01'],
      [-81_667, '-$0.82'],
      [-1_000, '-$0.01'],
      [-1_001, '-$0.02'],
      [123_456_789_999, '$1,234,567.89'],
    ];
    for (const [millicents, text] of cases) {
      expect([millicents, formatMillicents(millicents)]).toEqual([millicents, text]);
      expect([millicents, formatMillicentsAsDollars(millicents)]).toEqual([millicents, text]);
      expect([millicents, formatMillicentsAsDollars(BigInt(millicents))]).toEqual([millicents, text]);
    }
    for (let cents = -20_001; cents <= 20_001; cents += 97)
      expect(formatCents(cents)).toBe(formatCentsAsDollars(cents));
  });

  it('counts 167 s of talk time as 2 minutes in the summary, the chart and on the server', () => {
    expect(talkMinutes(167)).toBe(2);
    expect(serverTalkMinutes(167)).toBe(2);
    expect(serverTalkMinutes(167n)).toBe(2);
    expect(formatMinutes(167)).toBe('2 min');
    for (let seconds = 0; seconds <= 7_200; seconds += 7) expect(talkMinutes(seconds)).toBe(serverTalkMinutes(seconds));
    expect([talkMinutes(59), talkMinutes(60), talkMinutes(119), talkMinutes(120)]).toEqual([0, 1, 1, 2]);
  });
});
