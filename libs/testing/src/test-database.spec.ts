import { assertTestDatabaseName, dropTestDatabase } from '@switchboard/testing';

describe('the test database guard', () => {
  it('accepts only sb_test_ names', () => {
    expect(() => assertTestDatabaseName('sb_test_gateway_m1abc_0f0f0f')).not.toThrow();
    for (const name of [
      'postgres',
      'gateway',
      'sb_test',
      'SB_TEST_X',
      'sb_test_x"; DROP DATABASE postgres; --',
      `sb_test_${'x'.repeat(60)}`,
    ]) {
      expect(() => assertTestDatabaseName(name)).toThrow(/refusing to touch database/);
    }
  });

  it('refuses to drop a database that is not a test one, before connecting anywhere', async () => {
    await expect(dropTestDatabase('postgres', 'postgres://nowhere.invalid/postgres')).rejects.toThrow(
      'refusing to touch database "postgres"',
    );
  });
});
