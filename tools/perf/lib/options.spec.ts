import { parseOptions, usage, UsageError } from './options.mjs';

const spec = {
  only: { type: 'list', default: ['api', 'events'], choices: ['api', 'events', 'startup'] },
  path: { type: 'string', default: 'numbers', choices: ['numbers', 'calls'] },
  duration: { type: 'number', default: 10, min: 1 },
  quick: { type: 'boolean', default: false },
  'no-build': { type: 'boolean', default: false },
  sizes: { type: 'list', default: ['10000'] },
  items: { type: 'counts', default: [100] },
};

function usageError(argv: string[]): string {
  try {
    parseOptions(argv, spec);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`parsed ${argv.join(' ')} without an error`);
}

describe('the perf kit command line (node:util parseArgs)', () => {
  it('gives every option its default when none is given', () => {
    expect(parseOptions([], spec)).toEqual({
      help: false,
      only: ['api', 'events'],
      path: 'numbers',
      duration: 10,
      quick: false,
      'no-build': false,
      sizes: ['10000'],
      items: [100],
    });
  });

  it('reads counts as whole numbers, with underscores, and refuses anything else', () => {
    expect(parseOptions(['--items', '10_000,1000000'], spec)).toMatchObject({ items: [10_000, 1_000_000] });
    expect(usageError(['--items', '10k'])).toBe('--items takes whole numbers over 0, not "10k"');
    expect(usageError(['--items', '1,0'])).toBe('--items takes whole numbers over 0, not "1,0"');
  });

  it('reads `npm run bench -- --only api,events` and the other types as given', () => {
    const options = parseOptions(
      ['--only', 'api, startup', '--path=calls', '--duration', '2.5', '--quick', '--no-build', '--sizes', '1,2,'],
      spec,
    );
    expect(options).toMatchObject({
      only: ['api', 'startup'],
      path: 'calls',
      duration: 2.5,
      quick: true,
      'no-build': true,
      sizes: ['1', '2'],
    });
  });

  it('refuses an unknown option and names the known ones', () => {
    expect(usageError(['--durations', '5'])).toBe(
      'unknown option --durations (known: --only, --path, --duration, --quick, --no-build, --sizes, --items)',
    );
  });

  it('refuses a value outside the choices of a list or a string', () => {
    expect(usageError(['--only', 'api,lostfound'])).toBe('--only: unknown lostfound (known: api, events, startup)');
    expect(usageError(['--path', 'keys'])).toBe('--path: unknown keys (known: numbers, calls)');
  });

  it('refuses a number that is not one, or under its minimum', () => {
    expect(usageError(['--duration', 'ten'])).toBe('--duration must be a number, not "ten"');
    expect(usageError(['--duration', ''])).toBe('--duration must be a number, not ""');
    expect(usageError(['--duration', '0'])).toBe('--duration must be at least 1, not 0');
  });

  it('refuses a missing value, a value for a flag, an empty list and a positional argument', () => {
    expect(usageError(['--duration'])).toBe('--duration needs a value');
    expect(usageError(['--quick=yes'])).toBe('--quick takes no value');
    expect(usageError(['--only', ' , '])).toBe('--only needs at least one value');
    expect(usageError(['api'])).toMatch(/^unexpected argument api: every option starts with --/);
  });

  it('says when --help was asked for, and lists each option with its default', () => {
    expect(parseOptions(['--help'], spec).help).toBe(true);
    const text = usage('npm run bench --', { ...spec, duration: { ...spec.duration, help: 'seconds' } });
    expect(text.split('\n')).toEqual([
      'usage: npm run bench -- [options]',
      '  --only a,b (default api,events)',
      '  --path VALUE (default numbers)',
      '  --duration N  seconds (default 10)',
      '  --quick',
      '  --no-build',
      '  --sizes a,b (default 10000)',
      '  --items a,b (default 100)',
    ]);
  });
});
