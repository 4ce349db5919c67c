import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { GatewayShared } from '../../apps/gateway/src/gateway-core.module';
import { OperatorApiModule } from '../../apps/gateway/src/operator/operator-api.module';
import { shellCommands } from '../docs/shell-blocks.mjs';
import { localUrl, readRunFile, removeRunFile, runFileContents, runFilePath, writeRunFile } from '../dev/run-file.mjs';
import { UNANSWERED_STATUSES } from '../../apps/calls-media/src/provider-calls/provider-call-reports';
import { API_KEY_MODES, CONSOLE_ROLES, TIERS } from '@switchboard/contracts';
import {
  CALL_DIRECTIONS,
  CALL_STATUSES,
  COMMANDS,
  parseCommandLine,
  requestOf,
  usageOf,
  UsageError,
} from './commands.mjs';

const root = join(__dirname, '..', '..');
const cli = join(__dirname, 'cli.mjs');

/** Every route the gateway's operator server serves, as "PUT /admin/payments/faults", read from its controllers' decorators. */
function operatorRoutes(): string[] {
  const controllers = OperatorApiModule.forRoot({ messaging: {} } as unknown as GatewayShared).controllers ?? [];
  return controllers.flatMap((controller) => {
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
    // Handlers a controller inherits from a base class count too: walk the prototype chain.
    const prototypes: object[] = [];
    for (let p = controller.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) prototypes.push(p);
    return prototypes
      .flatMap((prototype) =>
        Object.getOwnPropertyNames(prototype).map((name) => (prototype as Record<string, unknown>)[name]),
      )
      .filter(
        (handler): handler is object => typeof handler === 'function' && Reflect.hasMetadata(METHOD_METADATA, handler),
      )
      .map((handler) => {
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        return `${method} ${`/${base}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1')}`;
      });
  });
}

const commandRoutes = () => COMMANDS.map((command) => `${command.method} ${command.route}`);

describe('the operator CLI covers the operator API', () => {
  it('has a command for every route of the operator server, and none for a route it lacks', () => {
    const routes = operatorRoutes();
    // The derivation itself found the contract's routes, e.g. the one the CLI once lacked.
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /admin/accounts',
        'DELETE /admin/accounts/:account_id/api-keys/:key_id',
        'PUT /admin/payments/faults',
      ]),
    );
    expect(routes.filter((route) => !commandRoutes().includes(route))).toEqual([]);
    expect(commandRoutes().filter((route) => !routes.includes(route))).toEqual([]);
  });

  it('fills route parameters from the arguments, in order, and turns options into the query', () => {
    const revoke = COMMANDS.find((c) => c.name === 'keys revoke')!;
    expect(requestOf(revoke, ['acct_1', 'key/2'], {})).toEqual({
      method: 'DELETE',
      path: '/admin/accounts/acct_1/api-keys/key%2F2',
      body: undefined,
    });
    expect(() => requestOf(revoke, ['acct_1'], {})).toThrow('missing KEY_ID');
    expect(() => requestOf(revoke, ['acct_1', 'key_2', 'extra'], {})).toThrow('unexpected argument: extra');
    const sms = COMMANDS.find((c) => c.name === 'sms list')!;
    expect(requestOf(sms, [], { to: '+14155550123' }).path).toBe('/admin/sms?to=%2B14155550123');
    const ledger = COMMANDS.find((c) => c.name === 'accounts ledger')!;
    expect(requestOf(ledger, ['acct_1'], { limit: '2' }).path).toBe('/admin/accounts/acct_1/ledger?limit=2');
  });

  it('invites a user with the address after the account, the role as an option', () => {
    const invite = COMMANDS.find((c) => c.name === 'users invite')!;
    expect(requestOf(invite, ['acct_1', 'jane@example.com'], {})).toEqual({
      method: 'POST',
      path: '/admin/accounts/acct_1/users',
      body: { email: 'jane@example.com' },
    });
    expect(requestOf(invite, ['acct_1', 'sam@example.com'], { role: 'viewer' }).body).toEqual({
      email: 'sam@example.com',
      role: 'viewer',
    });
    expect(() => requestOf(invite, ['acct_1'], {})).toThrow('missing EMAIL');
    expect(() => requestOf(invite, ['acct_1', 'a@example.com', 'extra'], {})).toThrow('unexpected argument: extra');
    const email = COMMANDS.find((c) => c.name === 'email list')!;
    expect(requestOf(email, [], { to: 'jane@example.com' }).path).toBe('/admin/email?to=jane%40example.com');
  });
});

/** A value of the kind each placeholder of the help names; a placeholder without one fails the test that needs it. */
const SAMPLES: Record<string, string> = {
  ACCOUNT_ID: 'acct_1',
  KEY_ID: 'key_1',
  LOCATION_ID: '7',
  AREA_CODE: '415',
  EMAIL: 'ada@acme.example',
  ADDRESS: 'ada@acme.example',
  NAME: 'Acme Pizza',
  CENTS: '500',
  N: '3',
  SECONDS: '42',
  MS: '250',
  E164: '+14155550123',
  OUTCOME: 'order_placed',
  ISO_DATE_TIME: '2026-11-28T12:00:00Z',
  JSON: '[{"role":"caller","text":"Hello?"}]',
  LEDGER_ENTRY_ID: 'le_1',
  'IP_OR_CIDR,...': '203.0.113.0/24,2001:db8::/32',
  'CC,...': 'US,MX',
  num_N: 'num_1',
  DEAD_LETTER_ID: 'calls-media-retell-calls.41',
};
const sampleOf = (placeholder: string): string => {
  // "starter|growth|scale": one of the choices, the last (e.g. `test` of live|test).
  if (placeholder.includes('|')) return placeholder.split('|').at(-1)!;
  if (!(placeholder in SAMPLES)) throw new Error(`no sample value for the help's placeholder ${placeholder}`);
  return SAMPLES[placeholder];
};

interface ListedOption {
  name: string;
  /** The placeholder of a string option; none for a flag. */
  value?: string;
  required: boolean;
}

/** A help line read back: "keys create ACCOUNT_ID [--allow IP_OR_CIDR,...] [--mode live|test]". */
function readUsage(line: string): { name: string; positionals: string[]; options: ListedOption[] } {
  const command = COMMANDS.find((c) => line === c.name || line.startsWith(`${c.name} `));
  if (!command) throw new Error(`the help lists a line that names no command: ${line}`);
  const words = line.slice(command.name.length).trim().split(/\s+/).filter(Boolean);
  const firstOption = words.findIndex((word) => /^\[?--/.test(word));
  const positionals = firstOption === -1 ? words : words.slice(0, firstOption);
  const options: ListedOption[] = [];
  const rest = firstOption === -1 ? [] : words.slice(firstOption);
  for (let i = 0; i < rest.length; i++) {
    const required = !rest[i].startsWith('[');
    const name = rest[i].replace(/^\[?--/, '').replace(/\]$/, '');
    const flag = rest[i].endsWith(']') || !rest[i + 1] || /^\[?--/.test(rest[i + 1]);
    if (flag) options.push({ name, required });
    else options.push({ name, value: rest[++i].replace(/\]$/, ''), required });
  }
  return { name: command.name, positionals, options };
}

describe('the values an option takes', () => {
  const option = (command: string, name: string): { choices?: readonly string[] } | undefined =>
    Object.entries(COMMANDS.find((c) => c.name === command)?.options ?? {}).find(([n]) => n === name)?.[1];

  it("are declared as choices wherever the help lists them, and are the API's own", () => {
    // A placeholder of alternatives (`a|b`) written by hand would be shown and never checked.
    const handWritten = COMMANDS.flatMap((command) =>
      Object.entries(command.options ?? {})
        .filter(([, declared]) => declared.value?.includes('|'))
        .map(([name]) => `${command.name} --${name}`),
    );
    expect(handWritten).toEqual([]);
    expect(option('accounts create', 'tier')?.choices).toEqual(TIERS);
    expect(option('accounts update', 'tier')?.choices).toEqual(TIERS);
    expect(option('keys create', 'mode')?.choices).toEqual(API_KEY_MODES);
    expect(option('users invite', 'role')?.choices).toEqual(CONSOLE_ROLES);
    // What calls-media takes from a provider: answered calls complete, the rest are Twilio's unanswered statuses.
    expect(CALL_STATUSES).toEqual(['completed', ...UNANSWERED_STATUSES]);
    expect(option('provider call', 'status')?.choices).toEqual(CALL_STATUSES);
    expect(option('provider call', 'direction')?.choices).toEqual(CALL_DIRECTIONS);
    expect(usageOf(COMMANDS.find((c) => c.name === 'provider call'))).toContain(
      '[--direction inbound|outbound] [--status completed|busy|no-answer|failed|canceled]',
    );
  });

  it('refuses any other value as a usage error, naming the ones it takes', () => {
    const keys = COMMANDS.find((c) => c.name === 'keys create')!;
    expect(() => requestOf(keys, ['acct_1'], { mode: 'bogus' })).toThrow(
      '--mode takes live, test; not bogus (usage: keys create ACCOUNT_ID [--allow IP_OR_CIDR,...] [--mode live|test])',
    );
    const call = COMMANDS.find((c) => c.name === 'provider call')!;
    const required = { to: '+14155550123', caller: '+14155550199', duration: '1', outcome: 'x' };
    expect(() => requestOf(call, [], { ...required, status: 'done' })).toThrow('--status takes completed, busy');
    expect(requestOf(call, [], { ...required, status: 'no-answer', direction: 'outbound' }).body).toMatchObject({
      status: 'no-answer',
      direction: 'outbound',
    });
    expect(requestOf(call, [], { ...required, live: true }).body).toMatchObject({ live: {} });
    expect(requestOf(call, [], { ...required, 'turn-interval': '50' }).body).toMatchObject({
      live: { turn_interval_ms: 50 },
    });
    expect(requestOf(call, [], required).body).not.toHaveProperty('live');
  });
});

describe("the operator CLI keeps its help's word", () => {
  let helpLines: string[];
  beforeAll(async () => {
    const result = await runCli(['--help'], {});
    // The command lines of the help as printed: indented two spaces, starting with a command's name.
    helpLines = result.stdout
      .split('\n')
      .filter((line) => /^ {2}\S/.test(line) && COMMANDS.some((c) => line.trim().startsWith(c.name)))
      .map((line) => line.trim());
  });

  it('parses every option every command lists, each with a sample value of its placeholder', () => {
    // The help prints one line per command, the one its declaration makes.
    expect(helpLines).toEqual(COMMANDS.map((command) => usageOf(command)));
    for (const line of helpLines) {
      const usage = readUsage(line);
      const argv = [...usage.name.split(' '), ...usage.positionals.map(sampleOf)];
      for (const option of usage.options)
        argv.push(`--${option.name}`, ...(option.value ? [sampleOf(option.value)] : []));
      const parsed = parseCommandLine(argv);
      expect({ line, command: parsed.command?.name, positionals: parsed.positionals, values: parsed.values }).toEqual({
        line,
        command: usage.name,
        positionals: usage.positionals.map(sampleOf),
        values: Object.fromEntries(
          usage.options.map((option) => [option.name, option.value ? sampleOf(option.value) : true]),
        ),
      });
    }
    // Every command was read back, with its options: e.g. the ones the parser once refused.
    expect(helpLines).toHaveLength(COMMANDS.length);
    expect(helpLines.join('\n')).toMatch(/provider call .*\[--lost-item JSON\]/);
    expect(helpLines.join('\n')).toMatch(/locations update .*\[--hold-days N\] \[--lostfound\]/);
    expect(helpLines.join('\n')).toMatch(/keys create .*\[--mode live\|test\]/);
  });

  it('puts every option it lists into the request: a required one is missed without it, an optional one changes it', () => {
    for (const line of helpLines) {
      const usage = readUsage(line);
      const command = COMMANDS.find((c) => c.name === usage.name)!;
      const positionals = usage.positionals.map(sampleOf);
      const required = usage.options.filter((option) => option.required);
      const valuesOf = (options: ListedOption[]) =>
        Object.fromEntries(options.map((option) => [option.name, option.value ? sampleOf(option.value) : true]));
      const baseline = requestOf(command, positionals, valuesOf(required));
      for (const option of usage.options) {
        if (option.required) {
          const others = required.filter((other) => other !== option);
          expect(() => requestOf(command, positionals, valuesOf(others))).toThrow(`missing --${option.name}`);
          continue;
        }
        let request;
        try {
          request = requestOf(command, positionals, valuesOf([...required, option]));
        } catch (error) {
          // An option that goes with another (--top-up-threshold with --top-up-amount) says which, as listed.
          expect(error).toBeInstanceOf(UsageError);
          const partner = usage.options.find(
            (other) => other !== option && (error as Error).message.includes(`--${other.name} `),
          );
          expect({ line, option: option.name, refusedFor: partner?.name }).toEqual({
            line,
            option: option.name,
            refusedFor: expect.any(String),
          });
          request = requestOf(command, positionals, valuesOf([...required, option, partner!]));
        }
        expect({ line, option: option.name, changes: JSON.stringify(request) !== JSON.stringify(baseline) }).toEqual({
          line,
          option: option.name,
          changes: true,
        });
      }
    }
  });

  it('refuses an option its command does not list, saying the usage, and a contradiction', () => {
    const unknown = () => parseCommandLine(['accounts', 'create', '--name', 'Acme', '--available', '3']);
    expect(unknown).toThrow(
      'accounts create has no option --available\nusage: accounts create --name NAME [--balance CENTS] [--tier starter|growth|scale]',
    );
    // Not Node's parser advice about positional arguments, which no command takes after its options.
    expect(unknown).not.toThrow(/positional|To specify/);
    expect(() => parseCommandLine(['keys', 'create', 'acct_1', '--mode'])).toThrow(
      "Option '--mode <value>' argument missing",
    );
    expect(() => parseCommandLine(['keys', 'create', 'acct_1', '--mode'])).toThrow(
      'usage: keys create ACCOUNT_ID [--allow IP_OR_CIDR,...] [--mode live|test]',
    );
    const update = COMMANDS.find((c) => c.name === 'locations update')!;
    expect(() => requestOf(update, ['acct_1', '7'], { lostfound: true, 'no-lostfound': true })).toThrow(
      'give --lostfound or --no-lostfound, not both',
    );
  });
});

/** The Markdown files that show operator CLI commands: the READMEs and docs/. */
function documents(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? under(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return ['README.md', 'deploy/README.md', ...under('docs')];
}

describe('the operator CLI lines the docs show', () => {
  it('parse, name a command and make its request, each as written (placeholders such as acct_... as they stand)', () => {
    const lines = documents().flatMap((document) =>
      shellCommands(readFileSync(join(root, document), 'utf8'))
        .filter(({ words }) => words[0] === 'npm' && words.includes('admin') && words.includes('--'))
        .map(({ line, words }) => ({ document, line, args: words.slice(words.indexOf('--') + 1) })),
    );
    // The README's first requests among them: a simulated call with a transcript and a test key.
    const shown = lines.map(({ args }) => args.join(' ')).join('\n');
    expect(shown).toMatch(/^provider call .*--transcript \[\{"role":/m);
    expect(shown).toMatch(/^keys create acct_\.\.\. --mode test$/m);
    for (const { document, line, args } of lines) {
      let made: unknown;
      try {
        const parsed = parseCommandLine(args);
        if (!parsed.command) throw new Error('names no command');
        made = requestOf(parsed.command, parsed.positionals, parsed.values).path;
      } catch (error) {
        made = `refused: ${(error as Error).message}`;
      }
      expect({ document, line, made }).toEqual({ document, line, made: expect.stringMatching(/^\/admin\//) });
    }
  });
});

describe('the run file npm start writes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-run-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is DATA_DIR/run.json, DATA_DIR resolved from the project root, .data by default', () => {
    expect(runFilePath({}, '/repo')).toBe('/repo/.data/run.json');
    expect(runFilePath({ DATA_DIR: 'elsewhere' }, '/repo')).toBe('/repo/elsewhere/run.json');
    expect(runFilePath({ DATA_DIR: '/var/sb' }, '/repo')).toBe('/var/sb/run.json');
  });

  it("names the operator API's local address and the token's file, never the token", () => {
    const env = { DATA_DIR: dir, PORT: '3000', ADMIN_PORT: '3101', ADMIN_HOST: '0.0.0.0' };
    expect(runFileContents(env, 42)).toMatchObject({
      pid: 42,
      data_dir: dir,
      public_url: 'http://127.0.0.1:3000',
      admin_url: 'http://127.0.0.1:3101',
      admin_token_file: join(dir, 'admin-token'),
    });
    expect(runFileContents({ ...env, ADMIN_TOKEN: 'a-long-enough-admin-token' }, 42)).toMatchObject({
      admin_token_file: null,
    });
    expect(JSON.stringify(runFileContents({ ...env, ADMIN_TOKEN: 'a-long-enough-admin-token' }, 42))).not.toContain(
      'a-long-enough-admin-token',
    );
    expect(localUrl({ host: '::1', port: '3001', https: true })).toBe('https://[::1]:3001');
  });

  it('is written readable by its owner only, and removed only by the npm start that wrote it', () => {
    const path = join(dir, 'run.json');
    writeRunFile(path, { pid: 42, admin_url: 'http://127.0.0.1:3001' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    removeRunFile(path, 43);
    expect(readRunFile(path)).toEqual({ pid: 42, admin_url: 'http://127.0.0.1:3001' });
    removeRunFile(path, 42);
    expect(readRunFile(path)).toBeUndefined();
  });
});

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

/** A stand-in for the gateway's operator server: records each request, answers { ok: true } (401 for a wrong token). */
async function standInOperatorApi(token: string): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization, body });
      const ok = request.headers.authorization === `Bearer ${token}`;
      response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      response.end(JSON.stringify(ok ? { charge_failures: 2 } : { error: { code: 'unauthorized', message: 'no' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** The CLI as a person runs it in a second terminal: no ADMIN_* variables, from another directory. */
function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !['ADMIN_URL', 'ADMIN_PORT', 'ADMIN_TOKEN', 'DATA_DIR'].includes(name),
    ),
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: tmpdir(), env: { ...clean, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the operator CLI in a second terminal', () => {
  jest.setTimeout(20_000);
  const token = 'adm_stand-in-token-for-the-cli-test';
  let dataDir: string;
  let api: Awaited<ReturnType<typeof standInOperatorApi>>;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sb-cli-'));
    api = await standInOperatorApi(token);
  });
  afterEach(async () => {
    await new Promise((resolve) => api.server.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const startedSystem = (contents: object = {}) => {
    writeFileSync(join(dataDir, 'admin-token'), `${token}\n`, { mode: 0o600 });
    writeRunFile(join(dataDir, 'run.json'), {
      pid: process.pid,
      admin_url: api.url,
      admin_token_file: join(dataDir, 'admin-token'),
      ...contents,
    });
  };

  it("finds the running system's operator API and token through the run file and sets payment faults", async () => {
    startedSystem();
    const result = await runCli(['payments', 'faults', '--charge-failures', '2'], { DATA_DIR: dataDir });
    expect(result).toEqual({ code: 0, stdout: `${JSON.stringify({ charge_failures: 2 }, null, 2)}\n`, stderr: '' });
    expect(api.seen).toEqual([
      { method: 'PUT', url: '/admin/payments/faults', authorization: `Bearer ${token}`, body: '{"charge_failures":2}' },
    ]);
  });

  it('says what to export when there is no run file and nothing answers', async () => {
    writeFileSync(join(dataDir, 'admin-token'), `${token}\n`);
    const result = await runCli(['accounts', 'get', 'acct_1'], { DATA_DIR: dataDir, ADMIN_URL: 'http://127.0.0.1:1' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: nothing answers at http://127.0.0.1:1 (from ADMIN_URL)');
    expect(result.stderr).toContain(`There is no ${join(dataDir, 'run.json')}.`);
    expect(result.stderr).toMatch(
      /export that DATA_DIR here; .* export ADMIN_URL\n\(its operator API, e\.g\. http:\/\/127\.0\.0\.1:3001\) and ADMIN_TOKEN/,
    );
  });

  it('says the run file is stale when the npm start that wrote it is gone, and what to export', async () => {
    const gone = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.on('exit', () => resolve(child.pid!));
    });
    startedSystem({ pid: gone, admin_token_file: join(dataDir, 'nowhere') });
    rmSync(join(dataDir, 'admin-token'));
    const result = await runCli(['accounts', 'get', 'acct_1'], { DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `error: no operator token: ADMIN_TOKEN is not set and there is no ${join(dataDir, 'admin-token')}. ${join(dataDir, 'run.json')} names npm start pid ${gone}, which no longer runs.`,
    );
    expect(result.stderr).toContain('export ADMIN_URL');
    expect(api.seen).toEqual([]);
  });

  it('asks for ADMIN_TOKEN when the system was started with one, and says so when the API refuses a token', async () => {
    startedSystem({ admin_token_file: null });
    const missing = await runCli(['accounts', 'get', 'acct_1'], { DATA_DIR: dataDir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `error: no ADMIN_TOKEN: the system at ${api.url} was started with ADMIN_TOKEN set, so it keeps no token file.\nExport the same ADMIN_TOKEN here.\n`,
    );

    const refused = await runCli(['accounts', 'get', 'acct_1'], {
      DATA_DIR: dataDir,
      ADMIN_TOKEN: 'adm_not-the-token-it-runs-with',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `error: the operator API at ${api.url} refused the token from ADMIN_TOKEN; export the ADMIN_TOKEN it runs with.\n`,
    );
    expect(api.seen.map((request) => request.url)).toEqual(['/admin/accounts/acct_1']);
  });

  it('sends the options issue 48 found refused: a lost item, hold days, lost and found on, a test key', async () => {
    startedSystem();
    const lostItem = '{"category":"umbrella","description":"Black, wooden handle"}';
    const runs = [
      // prettier-ignore
      ['provider', 'call', '--to', '+14155550123', '--caller', '+14155550199', '--duration', '42', '--outcome', 'lost_item_report', '--lost-item', lostItem],
      ['locations', 'update', 'acct_1', '7', '--hold-days', '30', '--lostfound'],
      ['keys', 'create', 'acct_1', '--mode', 'test'],
    ];
    for (const args of runs) expect(await runCli(args, { DATA_DIR: dataDir })).toMatchObject({ code: 0, stderr: '' });
    expect(api.seen.map(({ method, url, body }) => ({ method, url, body: JSON.parse(body) }))).toEqual([
      {
        method: 'POST',
        url: '/admin/provider/calls',
        body: {
          to: '+14155550123',
          caller: '+14155550199',
          duration_sec: 42,
          outcome: 'lost_item_report',
          lost_item: { category: 'umbrella', description: 'Black, wooden handle' },
        },
      },
      { method: 'PATCH', url: '/admin/accounts/acct_1/locations/7', body: { hold_days: 30, lostfound_enabled: true } },
      { method: 'POST', url: '/admin/accounts/acct_1/api-keys', body: { mode: 'test' } },
    ]);
  });

  it("sends a call's analysis as the operator contract takes it", async () => {
    startedSystem();
    const analysis = '{"summary":"Ordered.","sentiment":"positive","successful":true,"custom":{"order_total":23.5}}';
    // prettier-ignore
    const args = ['provider', 'call', '--to', '+14155550123', '--caller', '+14155550199', '--duration', '42', '--outcome', 'order_placed', '--analysis', analysis];
    expect(await runCli(args, { DATA_DIR: dataDir })).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(api.seen[0].body)).toEqual({
      to: '+14155550123',
      caller: '+14155550199',
      duration_sec: 42,
      outcome: 'order_placed',
      analysis: { summary: 'Ordered.', sentiment: 'positive', successful: true, custom: { order_total: 23.5 } },
    });
    const bad = await runCli([...args.slice(0, -1), '{not json'], { DATA_DIR: dataDir });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--analysis');
  });

  it('lists every command in its help, the one for payment faults included', async () => {
    const result = await runCli(['--help'], {});
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toContain(`  ${command.name}`);
    expect(result.stdout).toContain('payments faults --charge-failures N');
    expect(result.stdout).toContain(runFilePath({}, root));
  });

  it('names in its help the run file of the DATA_DIR exported, not the default one', async () => {
    const result = await runCli(['--help'], { DATA_DIR: dataDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`the run file that npm start writes, ${join(dataDir, 'run.json')}\n`);
    expect(result.stdout).not.toContain(runFilePath({}, root));
  });

  it("refuses a key mode it does not know before sending anything, and an unknown option without Node's advice", async () => {
    startedSystem();
    const mode = await runCli(['keys', 'create', 'acct_1', '--mode', 'bogus'], { DATA_DIR: dataDir });
    expect(mode).toMatchObject({ code: 2, stdout: '' });
    expect(mode.stderr).toContain('error: --mode takes live, test; not bogus');
    const option = await runCli(['keys', 'create', 'acct_1', '--mod', 'test'], { DATA_DIR: dataDir });
    expect(option).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: keys create has no option --mod\nusage: keys create ACCOUNT_ID [--allow IP_OR_CIDR,...] [--mode live|test]\n',
    });
    expect(api.seen).toEqual([]);
  });

  it('says in the help of provider call that a lost-item report needs a lost-and-found line', async () => {
    const result = await runCli(['provider', 'call', '--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/lost_item_report becomes a claim only when --to is a lost-and-found line/);
    expect(result.stdout).toMatch(/to any other number the call is recorded and no claim is filed/);
  });
});
