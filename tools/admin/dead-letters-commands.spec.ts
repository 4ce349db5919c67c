import { COMMANDS, parseCommandLine, requestOf, usageOf } from './commands.mjs';

/** The request a command line makes, as `npm run admin -- <argv>` would send it. */
function requestFor(argv: string[]) {
  const parsed = parseCommandLine(argv);
  if (!parsed.command) throw new Error(`${argv.join(' ')} names no command`);
  return requestOf(parsed.command, parsed.positionals, parsed.values);
}

describe('the operator CLI’s dead-letter commands', () => {
  it('lists a page of dead letters, after the one given', () => {
    expect(requestFor(['dead-letters', 'list'])).toEqual({
      method: 'GET',
      path: '/admin/dead-letters',
      body: undefined,
    });
    expect(
      requestFor(['dead-letters', 'list', '--limit', '20', '--starting-after', 'calls-media-retell-calls.41']).path,
    ).toBe('/admin/dead-letters?limit=20&starting_after=calls-media-retell-calls.41');
  });

  it('shows and replays one dead letter by its id', () => {
    expect(requestFor(['dead-letters', 'show', 'numbers-billing-talk-time.1234'])).toEqual({
      method: 'GET',
      path: '/admin/dead-letters/numbers-billing-talk-time.1234',
      body: undefined,
    });
    expect(requestFor(['dead-letters', 'replay', 'numbers-billing-talk-time.1234'])).toEqual({
      method: 'POST',
      path: '/admin/dead-letters/numbers-billing-talk-time.1234/replay',
      body: undefined,
    });
  });

  it('asks for the id it needs, and says the usage for an option it does not take', () => {
    expect(() => requestFor(['dead-letters', 'replay'])).toThrow('missing DEAD_LETTER_ID');
    expect(() => requestFor(['dead-letters', 'show', 'x.1', '--limit', '2'])).toThrow(
      /dead-letters show has no option --limit\nusage: dead-letters show DEAD_LETTER_ID/,
    );
    const list = COMMANDS.find((command: { name: string }) => command.name === 'dead-letters list');
    expect(usageOf(list)).toBe('dead-letters list [--limit N] [--starting-after DEAD_LETTER_ID]');
  });
});
