import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { areaCodeOf, isE164, isUsAreaCode, isUsE164, PhoneVerdicts } from './phone';

describe('phone rules', () => {
  it('accept valid US numbers written in E.164 only', () => {
    expect(isUsE164('+14155550123')).toBe(true);
    expect(isUsE164('+12125551234')).toBe(true);
  });

  it('refuse other forms, other countries and impossible US numbers', () => {
    for (const value of [
      '4155550123',
      '+1 415 555 0123',
      '+1415555012',
      '+441632960961',
      '+11235550123',
      '+14150550123',
      14155550123,
      null,
    ]) {
      expect(isUsE164(value)).toBe(false);
    }
  });

  it('accept callers from abroad in E.164', () => {
    expect(isE164('+442071838750')).toBe(true);
    expect(isE164('+1415')).toBe(false);
  });

  it("give libphonenumber's verdict on +1 numbers of any area code, ten digits or not", () => {
    const libphonenumber = (e164: string) => parsePhoneNumberFromString(e164)?.isPossible() ?? false;
    const differing: string[] = [];
    for (let area = 0; area < 1000; area += 1)
      for (const exchange of [0, 1, 99, 100, 211, 555, 911, 999]) {
        const digits = `${String(area).padStart(3, '0')}${String(exchange).padStart(3, '0')}${String(area * 7).slice(-4)}`;
        for (const e164 of [`+1${digits}`, `+1${digits.slice(0, 9)}`, `+1${digits}5`])
          if (isE164(e164) !== libphonenumber(e164)) differing.push(e164);
      }
    expect(differing).toEqual([]);
  });

  it('read the area code and check area codes', () => {
    expect(areaCodeOf('+14155550123')).toBe('415');
    expect(isUsAreaCode('415')).toBe(true);
    expect(isUsAreaCode('911')).toBe(false);
    expect(isUsAreaCode('123')).toBe(false);
    expect(isUsAreaCode('41')).toBe(false);
  });
});

describe('PhoneVerdicts', () => {
  it('ask the rule once per string and forget the oldest beyond its capacity', () => {
    const asked: string[] = [];
    const verdicts = new PhoneVerdicts((e164) => {
      asked.push(e164);
      return e164.endsWith('1');
    }, 2);
    expect(verdicts.of('+1')).toBe(true);
    expect(verdicts.of('+2')).toBe(false);
    expect(verdicts.of('+1')).toBe(true);
    expect(verdicts.of('+2')).toBe(false);
    expect(asked).toEqual(['+1', '+2']);
    expect(verdicts.of('+31')).toBe(true);
    expect(verdicts.size).toBe(2);
    expect(verdicts.of('+2')).toBe(false);
    expect(verdicts.of('+1')).toBe(true);
    expect(asked).toEqual(['+1', '+2', '+31', '+1']);
  });

  it('give the same verdicts the second time a number is checked', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(isUsE164('+14155550123')).toBe(true);
      expect(isUsE164('+11235550123')).toBe(false);
      expect(isE164('+442071838750')).toBe(true);
      expect(isE164('+1415')).toBe(false);
    }
  });
});
