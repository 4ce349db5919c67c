import { ConfigError, envIntAtLeast, envIntBetween, envNonNegativeInt, envPort, envPositiveInt } from './env';

describe('environment parsing', () => {
  it('takes the default when a variable is unset or blank, and trims what is set', () => {
    expect(envPositiveInt({}, 'LIMIT', 60)).toBe(60);
    expect(envPositiveInt({ LIMIT: '' }, 'LIMIT', 60)).toBe(60);
    expect(envPositiveInt({ LIMIT: '  ' }, 'LIMIT', 60)).toBe(60);
    expect(envPositiveInt({ LIMIT: ' 7 ' }, 'LIMIT', 60)).toBe(7);
  });

  it.each([
    ['envPort', () => envPort({ PORT: '65536' }, 'PORT', 3000), 'PORT must be a port number (0-65535) (got "65536")'],
    ['envPositiveInt', () => envPositiveInt({ LIMIT: '0' }, 'LIMIT', 1), 'LIMIT must be a positive integer (got "0")'],
    [
      'envNonNegativeInt',
      () => envNonNegativeInt({ EVERY_MS: '-1' }, 'EVERY_MS', 0),
      'EVERY_MS must be a non-negative integer (got "-1")',
    ],
    [
      'envIntAtLeast',
      () => envIntAtLeast({ TIMEOUT_MS: '99' }, 'TIMEOUT_MS', 1000, 100),
      'TIMEOUT_MS must be an integer >= 100 (got "99")',
    ],
    [
      'envIntBetween',
      () => envIntBetween({ PER_DAY: '1001' }, 'PER_DAY', 3, 1, 1000),
      'PER_DAY must be an integer between 1 and 1000 (got "1001")',
    ],
  ])('%s refuses a value out of range with a ConfigError naming variable, rule and value', (_name, read, message) => {
    expect(read).toThrow(new ConfigError(message));
    expect(read).toThrow(ConfigError);
  });

  it.each(['1.5', 'ten', '1e30', '0x10x'])('refuses %s, which is not a safe integer', (raw) => {
    expect(() => envNonNegativeInt({ N: raw }, 'N', 0)).toThrow(`N must be a non-negative integer (got "${raw}")`);
  });

  it('accepts the bounds themselves', () => {
    expect(envPort({ PORT: '0' }, 'PORT', 3000)).toBe(0);
    expect(envPort({ PORT: '65535' }, 'PORT', 3000)).toBe(65535);
    expect(envNonNegativeInt({ N: '0' }, 'N', 5)).toBe(0);
    expect(envIntAtLeast({ N: '100' }, 'N', 5, 100)).toBe(100);
    expect(envIntBetween({ N: '1' }, 'N', 5, 1, 3)).toBe(1);
    expect(envIntBetween({ N: '3' }, 'N', 5, 1, 3)).toBe(3);
  });
});
