import { assertTestDatabaseName, testDatabaseServerUrl } from '@switchboard/testing';
import { Client } from 'pg';

/**
 * A real database outage for one test database: new connections are refused ("not currently accepting
 * connections") and the open ones are terminated, as when PostgreSQL restarts. `restore()` ends it.
 */
export async function cutOffDatabase(databaseUrl: string): Promise<{ restore(): Promise<void> }> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  assertTestDatabaseName(name);
  await onServer(async (client) => {
    await client.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
    await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
  });
  let restored: Promise<void> | undefined;
  return {
    restore: () => (restored ??= onServer((client) => client.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`))),
  };
}

async function onServer(work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: testDatabaseServerUrl(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
