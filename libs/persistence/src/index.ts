export {
  assertAppName,
  dataDirFor,
  databaseLocationFor,
  databaseUrlFor,
  databaseUrlVariable,
  redactUrl,
  type DatabaseLocation,
  type Env,
} from './database-config.ts';
export { closePGlite, createDriverAdapter, type DatabaseDriver } from './driver-adapter.ts';
export { PersistenceError } from './errors.ts';
export { hasSqlState, isDatabaseUnavailable } from './database-unavailable.ts';
export {
  MIGRATION_LOCK_CONTENT,
  migrationSlug,
  migrationTimestamp,
  readMigrations,
  writeMigration,
} from './migration-files.ts';
export {
  applyMigrations,
  checkMigrations,
  createMigration,
  diffSchemaFromMigrations,
  MIGRATION_ADVISORY_LOCK,
  type ApplyMigrationsOptions,
  type ApplyMigrationsResult,
  type CreatedMigration,
  type MigrationCheck,
  type SchemaMigrationsOptions,
} from './migrations.ts';
export {
  createPrismaClient,
  extendedClientClass,
  type CreatePrismaClientOptions,
  type PrismaClientClass,
  type PrismaClientHandle,
  type TransactionClientOf,
} from './prisma-client.ts';
export { compileSql, kyselyExtension, prebuiltStatement, sqlBuilder, type SqlStatement } from './kysely.ts';
export { Transactions, type TransactionalClient, type TransactionOptions } from './transactions.ts';
export { DatabaseHealth, PrismaModule, type PrismaModuleOptions } from './prisma.module.ts';
