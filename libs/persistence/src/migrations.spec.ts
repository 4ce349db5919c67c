import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import { readMigrations } from './migration-files.ts';
import { nothingToApply, type RecordedMigration } from './migrations.ts';

const committed: MigrationList = readMigrations(path.resolve(__dirname, '../test-fixtures/migrations'));
const INIT = '20260101000000_init';

function checksumOf(name: string): string {
  const directory = committed.migrationDirectories.find((entry) => entry.path === name);
  const content = directory?.migrationFile.content;
  if (content?.tag !== 'ok') throw new Error(`no ${name} in the fixture`);
  return createHash('sha256').update(content.value).digest('hex');
}

const applied = (name: string, overrides: Partial<RecordedMigration> = {}): RecordedMigration => ({
  migration_name: name,
  checksum: checksumOf(name),
  finished: true,
  rolled_back: false,
  ...overrides,
});

describe('whether a start can skip the schema engine (nothingToApply)', () => {
  it('skips it when every committed migration is recorded as finished with its checksum', () => {
    expect(nothingToApply(committed, [applied(INIT)])).toBe(true);
  });

  it('leaves it to the engine when a committed migration is not recorded yet', () => {
    expect(nothingToApply(committed, [])).toBe(false);
  });

  it('leaves it to the engine when a recorded migration failed (the engine refuses with its own message)', () => {
    expect(nothingToApply(committed, [applied(INIT, { finished: false })])).toBe(false);
  });

  it('leaves it to the engine when a migration was edited after it was applied', () => {
    expect(nothingToApply(committed, [applied(INIT, { checksum: '0'.repeat(64) })])).toBe(false);
  });

  it('leaves it to the engine when the database records a migration this code does not have', () => {
    const unknown = { ...applied(INIT), migration_name: '20260109000000_from_a_newer_release' };
    expect(nothingToApply(committed, [applied(INIT), unknown])).toBe(false);
  });

  it('ignores a migration rolled back and applied again', () => {
    const rolledBack = applied(INIT, { finished: false, rolled_back: true });
    expect(nothingToApply(committed, [rolledBack, applied(INIT)])).toBe(true);
  });

  it('leaves it to the engine when a migration directory has no readable migration.sql', () => {
    const broken: MigrationList = {
      ...committed,
      migrationDirectories: [
        ...committed.migrationDirectories,
        {
          path: '20260102000000_empty',
          migrationFile: { path: 'migration.sql', content: { tag: 'error', value: 'ENOENT' } },
        },
      ],
    };
    expect(nothingToApply(broken, [applied(INIT)])).toBe(false);
  });
});
