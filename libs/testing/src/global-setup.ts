import { describeFailure } from './describe-failure.ts';
import { pingNats, pingPostgres, redact, testDatabaseServerUrl, testNatsUrl } from './services.ts';

/**
 * Jest globalSetup of the integration and e2e projects: fails the run at once, with what to do, when
 * PostgreSQL or NATS is not answering (instead of a timeout in every test).
 */
export default async function globalSetup(): Promise<void> {
  const postgresUrl = testDatabaseServerUrl();
  const natsUrl = testNatsUrl();
  const [postgres, nats] = await Promise.allSettled([pingPostgres(postgresUrl), pingNats(natsUrl)]);
  const problems: string[] = [];
  if (postgres.status === 'rejected') {
    problems.push(
      `PostgreSQL at ${redact(postgresUrl)} does not answer: ${describeFailure(postgres.reason)}\n` +
        '  Start it, or point TEST_DATABASE_URL at a server where this user may CREATE DATABASE.',
    );
  }
  if (nats.status === 'rejected') {
    problems.push(
      `NATS at ${redact(natsUrl)} does not answer: ${describeFailure(nats.reason)}\n` +
        '  Start it (nats-server -a 127.0.0.1 -p 4222 -js -sd <dir>), or set NATS_URL.',
    );
  }
  if (problems.length > 0) {
    throw new Error(`Integration tests need their services:\n- ${problems.join('\n- ')}`);
  }
}
