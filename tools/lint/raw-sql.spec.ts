import { linesMatching, workspaceSources, type SourceFile } from './workspace-sources';

// ADR 0070, 0135: hand-written SQL is Kysely over the generated table types, run through the app's Prisma client
// (`$kysely()`, libs/persistence's Kysely driver, which alone calls Prisma's raw path). Prisma's raw-query API and
// `Prisma.sql` fragments (untyped rows, hand-written row interfaces) stay out of the code.
const RAW_SQL = /\$queryRawUnsafe|\$executeRawUnsafe|\$queryRaw|\$executeRaw|\bPrisma\.sql\b/;
/** The one file that runs Kysely's compiled statements on Prisma's raw path. */
const KYSELY_DRIVER = 'libs/persistence/src/kysely.ts';

// Statements name their columns: every statement is a prepared statement on PostgreSQL (libs/persistence
// `preparedStatementNames`), and one whose result columns change under it (`*` after an expand migration added a
// column, while older replicas run) fails with "cached plan must not change result type" (docs/operations.md).
const ALL_COLUMNS = /\.(selectAll|returningAll)\(|\b(SELECT|RETURNING)\s+(\w+\.)?\*|,\s*\w+\.\*/i;

/** `file:line: text` of every line using Prisma's raw SQL API. */
export const rawSqlLines = (files: SourceFile[]) => linesMatching(RAW_SQL, files);

/** `file:line: text` of every line selecting or returning all columns (`*`, `t.*`, Kysely's `selectAll()`). */
export const allColumnsLines = (files: SourceFile[]) => linesMatching(ALL_COLUMNS, files);

describe('raw SQL through Prisma (ADR 0070, 0135)', () => {
  it('finds $queryRaw, $executeRaw, their Unsafe forms and Prisma.sql', () => {
    const text = [
      'await tx.$queryRaw`SELECT 1`;',
      'await this.prisma.$executeRaw`UPDATE x`;',
      "await p.$queryRawUnsafe('SELECT 1');",
      "await p.$executeRawUnsafe('DELETE FROM x');",
      'const part = Prisma.sql`a = ${1}`;',
      'await sql`SELECT 1`.execute(this.prisma.$kysely());',
      "await tx.$kysely().selectFrom('numbers').selectAll().execute();",
    ].join('\n');
    expect(rawSqlLines([{ path: 'apps/x/src/a.ts', text }])).toHaveLength(5);
  });

  it("no app or library source uses Prisma raw SQL (write Kysely, run it on the client's or the transaction's $kysely())", () => {
    const sources = workspaceSources();
    expect(sources.length).toBeGreaterThan(100);
    const offenders = rawSqlLines(sources.filter(({ path }) => path !== KYSELY_DRIVER));
    if (offenders.length > 0) {
      throw new Error(`${offenders.length} line(s) use Prisma's raw SQL API (docs/adr/0070):\n${offenders.join('\n')}`);
    }
  });
});

describe('statements name their columns (prepared statements outlive an expand migration)', () => {
  it("finds *, t.* and Kysely's selectAll/returningAll, not count(*)", () => {
    const text = [
      "await tx.$kysely().selectFrom('numbers').selectAll().execute();",
      "await db.insertInto('numbers').values(row).returningAll().execute();",
      'SELECT * FROM numbers',
      '  RETURNING a.*)',
      'SELECT c.*, n.phone_number FROM claimed c',
      'SELECT n.id, a.* FROM numbers n',
      'SELECT count(*)::int AS n FROM claims',
      "await tx.$kysely().selectFrom('numbers').select(['id', 'status']).execute();",
    ].join('\n');
    expect(allColumnsLines([{ path: 'apps/x/src/a.ts', text }])).toHaveLength(6);
  });

  it('no app or library source selects or returns all columns', () => {
    const offenders = allColumnsLines(workspaceSources());
    if (offenders.length > 0) {
      throw new Error(`${offenders.length} line(s) select or return all columns; name them:\n${offenders.join('\n')}`);
    }
  });
});
