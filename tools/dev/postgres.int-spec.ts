import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { chooseDatabases, OwnPostgres, postgresDir } from './postgres.mjs';
import { isRunning } from './run-file.mjs';

jest.setTimeout(60_000);

const SERVICES = ['numbers-billing', 'lostfound'];

/** The server npm start would run for a new DATA_DIR on this machine (PostgreSQL's programs are installed here). */
function ownPostgres(dataDir: string): OwnPostgres {
  const choice = chooseDatabases({ dataDir, services: SERVICES, env: { PATH: process.env.PATH } });
  if (choice.kind !== 'postgres') throw new Error(`npm start would not run PostgreSQL here: ${JSON.stringify(choice)}`);
  return new OwnPostgres({
    dir: postgresDir(dataDir),
    programs: choice.programs,
    runner: choice.runner,
    services: choice.services,
  });
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

const serverPid = (dataDir: string) =>
  Number(readFileSync(join(postgresDir(dataDir), 'cluster', 'postmaster.pid'), 'utf8').split('\n')[0]);

describe("npm start's own PostgreSQL", () => {
  let base: string;
  let dataDir: string;
  const servers: OwnPostgres[] = [];
  const started = (server: OwnPostgres) => (servers.push(server), server.start());

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'sb-own-postgres-'));
    chmodSync(base, 0o755); // run as root, the server runs as the postgres user, who must reach DATA_DIR
    dataDir = join(base, '.data');
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    rmSync(base, { recursive: true, force: true });
  });

  it('gives each service a database and user of its own, keeps them across restarts, and stops', async () => {
    const first = await started(ownPostgres(dataDir));
    expect(Object.keys(first.urls)).toEqual(SERVICES);
    expect(first.urls.lostfound).toMatch(
      new RegExp(`^postgres://lostfound:[^@]+@127\\.0\\.0\\.1:${first.port}/lostfound$`),
    );
    expect(statSync(join(postgresDir(dataDir), 'passwords.json')).mode & 0o777).toBe(0o600);

    const lostfound = await connect(first.urls.lostfound);
    try {
      await lostfound.query('CREATE TABLE found_things (id int)');
      await lostfound.query('INSERT INTO found_things VALUES (7)');
    } finally {
      await lostfound.end();
    }
    // One service's user cannot open another's database, as on separate servers.
    const numbersUrl = new URL(first.urls['numbers-billing']);
    numbersUrl.pathname = '/lostfound';
    await expect(connect(numbersUrl.toString())).rejects.toMatchObject({ code: '42501' });

    const pid = serverPid(dataDir);
    await servers[0].stop();
    expect(isRunning(pid)).toBe(false);

    const again = await started(ownPostgres(dataDir));
    expect(again.urls.lostfound.replace(`:${again.port}/`, ':PORT/')).toBe(
      first.urls.lostfound.replace(`:${first.port}/`, ':PORT/'),
    );
    const back = await connect(again.urls.lostfound);
    try {
      expect((await back.query('SELECT id FROM found_things')).rows).toEqual([{ id: 7 }]);
    } finally {
      await back.end();
    }
  });

  it('stops a server an earlier npm start left running (as when npm start is killed) and starts its own', async () => {
    await started(ownPostgres(dataDir));
    const leftover = serverPid(dataDir);

    const next = await started(ownPostgres(dataDir));
    expect(isRunning(leftover)).toBe(false);
    expect(serverPid(dataDir)).not.toBe(leftover);
    const client = await connect(next.urls['numbers-billing']);
    await client.end();
  });

  it('serves again on the same port after a kill -9, in a process group of its own, with its data', async () => {
    const { urls, exited } = await started(ownPostgres(dataDir));
    const before = await connect(urls.lostfound);
    try {
      await before.query('CREATE TABLE kept (id int)');
      await before.query('INSERT INTO kept VALUES (47)');
    } finally {
      await before.end();
    }
    const killed = serverPid(dataDir);
    // Not in this process's group: a terminal's Ctrl-C to npm start does not reach it (npm start stops it last).
    expect(servers[0].serve().pid).toBe(killed);
    expect(Number(readFileSync(`/proc/${killed}/stat`, 'utf8').split(') ')[1].split(' ')[2])).toBe(killed);
    process.kill(killed, 'SIGKILL');
    await exited;

    const again = servers[0].serve();
    expect(again.pid).not.toBe(killed);
    // The services' URLs still hold: same port, same passwords; PostgreSQL recovers what was committed.
    let client: Client | undefined;
    for (const deadline = Date.now() + 30_000; !client; await new Promise((resolve) => setTimeout(resolve, 100))) {
      client = await connect(urls.lostfound).catch((error: unknown) => {
        if (Date.now() > deadline) throw error;
        return undefined;
      });
    }
    try {
      expect((await client.query('SELECT id FROM kept')).rows).toEqual([{ id: 47 }]);
    } finally {
      await client.end();
    }
    await servers[0].stop();
    expect(isRunning(again.pid!)).toBe(false);
  });

  it('reports a server that exits on its own', async () => {
    const { exited } = await started(ownPostgres(dataDir));
    process.kill(serverPid(dataDir), 'SIGQUIT');
    await expect(exited).resolves.toBeDefined();
    expect(servers[0].stopping).toBe(false);
  });
});
