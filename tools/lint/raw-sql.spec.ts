import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// ADR 0070, 0135: hand-written SQL is Kysely over the generated table types, run through the app's Prisma client
// (`$kysely`, prisma-extension-kysely, which alone calls Prisma's raw path). Prisma's raw-query API and `Prisma.sql`
// fragments (untyped rows, hand-written row interfaces) stay out of the code.
const root = join(__dirname, '..', '..');

const RAW_SQL = /\$queryRawUnsafe|\$executeRawUnsafe|\$queryRaw|\$executeRaw|\bPrisma\.sql\b/;
const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;

// Statements name their columns: every statement is a prepared statement on PostgreSQL (libs/persistence
// `preparedStatementNames`), and one whose result columns change under it (`*` after an expand migration added a
// column, while older replicas run) fails with "cached plan must not change result type" (docs/operations.md).
const ALL_COLUMNS = /\.(selectAll|returningAll)\(|\b(SELECT|RETURNING)\s+(\w+\.)?\*|,\s*\w+\.\*/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !TEST_FILE.test(entry.name) ? [path] : [];
  });
}

/** `file:line: text` of every line `pattern` matches. */
function linesMatching(pattern: RegExp, files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) =>
    text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
}

/** `file:line: text` of every line using Prisma's raw SQL API. */
export const rawSqlLines = (files: { path: string; text: string }[]) => linesMatching(RAW_SQL, files);

/** `file:line: text` of every line selecting or returning all columns (`*`, `t.*`, Kysely's `selectAll()`). */
export const allColumnsLines = (files: { path: string; text: string }[]) => linesMatching(ALL_COLUMNS, files);

function workspaceSources(): { path: string; text: string }[] {
  return ['apps', 'libs'].flatMap((kind) =>
    readdirSync(join(root, kind), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        const src = join(root, kind, entry.name, 'src');
        try {
          return sourceFiles(src);
        } catch {
          return []; // a project without src/ (e.g. the console's own layout)
        }
      })
      .map((file) => ({ path: relative(root, file).split('\\').join('/'), text: readFileSync(file, 'utf8') })),
  );
}

describe('raw SQL through Prisma (ADR 0070, 0135)', () => {
  it('finds $queryRaw, $executeRaw, their Unsafe forms and Prisma.sql', () => {
    const text = [
      'await tx.$queryRaw`SELECT 1`;',
      'await this.prisma.$executeRaw`UPDATE x`;',
      "await p.$queryRawUnsafe('SELECT 1');",
      "await p.$executeRawUnsafe('DELETE FROM x');",
      'const part = Prisma.sql`a = ${1}`;',
      'await sql`SELECT 1`.execute(this.prisma.$kysely);',
      "await tx.$kysely.selectFrom('numbers').selectAll().execute();",
    ].join('\n');
    expect(rawSqlLines([{ path: 'apps/x/src/a.ts', text }])).toHaveLength(5);
  });

  it("no app or library source uses Prisma raw SQL (write Kysely, run it on the client's or the transaction's $kysely)", () => {
    const sources = workspaceSources();
    expect(sources.length).toBeGreaterThan(100);
    const offenders = rawSqlLines(sources);
    if (offenders.length > 0) {
      throw new Error(`${offenders.length} line(s) use Prisma's raw SQL API (docs/adr/0070):\n${offenders.join('\n')}`);
    }
  });
});

describe('statements name their columns (prepared statements outlive an expand migration)', () => {
  it("finds *, t.* and Kysely's selectAll/returningAll, not count(*)", () => {
    const text = [
      "await tx.$kysely.selectFrom('numbers').selectAll().execute();",
      "await db.insertInto('numbers').values(row).returningAll().execute();",
      'SELECT * FROM numbers',
      '  RETURNING a.*)',
      'SELECT c.*, n.phone_number FROM claimed c',
      'SELECT n.id, a.* FROM numbers n',
      'SELECT count(*)::int AS n FROM claims',
      "await tx.$kysely.selectFrom('numbers').select(['id', 'status']).execute();",
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
