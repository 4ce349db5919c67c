import { describeFailure } from './describe-failure.ts';
import { pingPostgres, redact, testDatabaseServerUrl } from './services.ts';
import { startTestNats, type RunningTestNats } from './test-nats.ts';

/** Handed from the global setup to the global teardown (both run in Jest's main process). */
export const RUNNING_TEST_NATS = Symbol.for('switchboard.testNats');
type WithTestNats = typeof globalThis & { [RUNNING_TEST_NATS]?: RunningTestNats };

/**
 * Jest globalSetup of the integration and e2e projects: fails the run at once, with what to do, when PostgreSQL
 * is not answering (instead of a timeout in every test), and starts the tests' own auth-enabled nats-server
 * (test-nats.ts).
 */
export default async function globalSetup(): Promise<void> {
  const postgresUrl = testDatabaseServerUrl();
  const [postgres, nats] = await Promise.allSettled([pingPostgres(postgresUrl), startTestNats()]);
  const problems: string[] = [];
  if (postgres.status === 'rejected') {
    problems.push(
      `PostgreSQL at ${redact(postgresUrl)} does not answer: ${describeFailure(postgres.reason)}\n` +
        '  Start it, or point TEST_DATABASE_URL at a server where this user may CREATE DATABASE.',
    );
  }
  if (nats.status === 'rejected') problems.push(`NATS: ${describeFailure(nats.reason)}`);
  else if (nats.value) (globalThis as WithTestNats)[RUNNING_TEST_NATS] = nats.value;
  if (problems.length > 0) {
    await (globalThis as WithTestNats)[RUNNING_TEST_NATS]?.stop();
    throw new Error(`Integration tests need their services:\n- ${problems.join('\n- ')}`);
  }
}
