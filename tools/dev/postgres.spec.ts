import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseDatabases, DatabaseChoiceError, postgresRunner, unreachableBy } from './postgres.mjs';

const SERVICES = ['numbers-billing', 'lostfound'];
const PROGRAMS = [
  { bin: '/usr/lib/postgresql/17/bin', version: '17' },
  { bin: '/usr/lib/postgresql/15/bin', version: '15' },
];
type Runner = NonNullable<Parameters<typeof chooseDatabases>[0]['runner']>;
const asUser: Runner = () => ({ prefix: [] });

describe('which databases npm start gives the services', () => {
  let base: string;
  let dataDir: string;
  const choose = (env: Record<string, string> = {}, programs = PROGRAMS, runner: Runner = asUser) =>
    chooseDatabases({ dataDir, services: SERVICES, env, findPrograms: () => programs, runner });
  const leavePGliteData = (service: string) => {
    mkdirSync(join(dataDir, service), { recursive: true });
    writeFileSync(join(dataDir, service, 'PG_VERSION'), '17\n');
  };
  const leaveCluster = (version: string) => {
    mkdirSync(join(dataDir, 'postgres', 'cluster'), { recursive: true });
    writeFileSync(join(dataDir, 'postgres', 'cluster', 'PG_VERSION'), `${version}\n`);
  };

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'sb-databases-'));
    chmodSync(base, 0o755);
    dataDir = join(base, '.data');
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('leaves them alone when every service has <APP>_DATABASE_URL', () => {
    const env = {
      NUMBERS_BILLING_DATABASE_URL: 'postgres://u@db/numbers',
      LOSTFOUND_DATABASE_URL: 'postgres://u@db/lostfound',
    };
    expect(choose(env)).toEqual({ kind: 'urls' });
  });

  it('runs one PostgreSQL of its own, on the newest programs found, for a new DATA_DIR', () => {
    expect(choose()).toEqual({
      kind: 'postgres',
      programs: PROGRAMS[0],
      runner: { prefix: [] },
      services: SERVICES,
      existing: false,
    });
  });

  it('gives its own server only to the services without a URL', () => {
    const choice = choose({ LOSTFOUND_DATABASE_URL: 'postgres://u@db/lostfound' });
    expect(choice).toMatchObject({ kind: 'postgres', services: ['numbers-billing'] });
  });

  it('keeps PGlite where an earlier start left PGlite databases, so that no data seems lost', () => {
    leavePGliteData('lostfound');
    expect(choose()).toEqual({
      kind: 'pglite',
      why: expect.stringContaining('PGlite databases from an earlier start'),
    });
  });

  it('runs the server it made before on the programs of that server’s major version', () => {
    leaveCluster('15');
    leavePGliteData('lostfound');
    expect(choose()).toMatchObject({ kind: 'postgres', programs: PROGRAMS[1], existing: true });
  });

  it('refuses to go on when its server holds data and no programs of that version are installed', () => {
    leaveCluster('14');
    expect(() => choose()).toThrow(DatabaseChoiceError);
    expect(() => choose()).toThrow(/PostgreSQL 14.*install PostgreSQL 14, or set EMBEDDED_DATABASE=pglite/);
  });

  it('falls back to PGlite, saying why, when PostgreSQL is not installed', () => {
    expect(choose({}, [])).toEqual({ kind: 'pglite', why: expect.stringContaining('PostgreSQL is not installed') });
  });

  it('does as EMBEDDED_DATABASE says', () => {
    expect(choose({ EMBEDDED_DATABASE: 'pglite' })).toEqual({ kind: 'pglite', why: 'EMBEDDED_DATABASE=pglite' });
    leavePGliteData('lostfound');
    expect(choose({ EMBEDDED_DATABASE: 'postgres' })).toMatchObject({ kind: 'postgres' });
    expect(() => choose({ EMBEDDED_DATABASE: 'postgres' }, [])).toThrow(/EMBEDDED_DATABASE=postgres, but/);
    expect(() => choose({ EMBEDDED_DATABASE: 'mysql' })).toThrow(/must be one of auto, postgres, pglite; got "mysql"/);
  });

  it('falls back to PGlite when, as root, there is no user to run PostgreSQL as', () => {
    const noUser = () => ({ error: 'no "postgres" user' });
    expect(choose({}, PROGRAMS, noUser)).toEqual({ kind: 'pglite', why: 'no "postgres" user' });
    leaveCluster('17');
    expect(() => choose({}, PROGRAMS, noUser)).toThrow('no "postgres" user');
  });

  it('falls back to PGlite when the user PostgreSQL runs as cannot reach DATA_DIR', () => {
    const closed = join(base, 'closed');
    mkdirSync(closed);
    chmodSync(closed, 0o700);
    const other = { prefix: ['setpriv'], owner: { uid: 424242, gid: 424242 } };
    dataDir = join(closed, '.data');
    expect(choose({}, PROGRAMS, () => other)).toEqual({
      kind: 'pglite',
      why: `PostgreSQL would run as the "postgres" user, who cannot enter ${closed}`,
    });
  });
});

describe('how npm start runs PostgreSQL’s programs', () => {
  it('runs them as itself when it is not root', () => {
    expect(postgresRunner(1000)).toEqual({ prefix: [] });
  });

  it('finds the first directory another user cannot enter', () => {
    const root = mkdtempSync(join(tmpdir(), 'sb-reach-'));
    try {
      mkdirSync(join(root, 'open', 'shut'), { recursive: true });
      chmodSync(join(root, 'open'), 0o755);
      chmodSync(join(root, 'open', 'shut'), 0o700);
      chmodSync(root, 0o755);
      const stranger = { uid: 424242, gid: 424242 };
      expect(unreachableBy(stranger, join(root, 'open'))).toBeUndefined();
      expect(unreachableBy(stranger, join(root, 'open', 'shut', 'postgres'))).toBe(join(root, 'open', 'shut'));
      expect(unreachableBy(stranger, join(root, 'open', 'not-yet', 'postgres'))).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
