import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// ADR 0070, 0135: hand-written SQL is Kysely over the generated table types, run through the app's Prisma client
// (`$kysely`, prisma-extension-kysely, which alone calls Prisma's raw path). Prisma's raw-query API and `Prisma.sql`
// fragments (untyped rows, hand-written row interfaces) stay out of the code.
const root = join(__dirname, '..', '..');

const RAW_SQL = /\$queryRawUnsafe|\$executeRawUnsafe|\$queryRaw|\$executeRaw|\bPrisma\.sql\b/;
const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !TEST_FILE.test(entry.name) ? [path] : [];
  });
}

/** `file:line: text` of every line using Prisma's raw SQL API. */
export function rawSqlLines(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) =>
    text.split('\n').flatMap((line, i) => (RAW_SQL.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
}

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
