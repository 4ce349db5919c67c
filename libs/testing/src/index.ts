export {
  assertTestDatabaseName,
  createTestDatabase,
  dropTestDatabase,
  TEST_DATABASE_PREFIX,
  type CreateTestDatabaseOptions,
  type TestDatabase,
} from './test-database.ts';
export { DEFAULT_TEST_DATABASE_URL, pingNats, pingPostgres, testDatabaseServerUrl } from './services.ts';
export {
  TEST_SUPERUSER,
  findNatsServer,
  freePort,
  testMessagingConfig,
  testNatsEnv,
  testNatsOptions,
  testNatsUrl,
} from './test-nats.ts';
export { TS_REGISTER } from './ts-register.ts';
// The end-to-end harness (startSystem, ApiSession, AdminClient) lives in test/e2e/support/: it boots the apps,
// and libs never import apps.
