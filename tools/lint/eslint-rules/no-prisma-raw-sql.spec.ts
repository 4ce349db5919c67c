import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import rule from './no-prisma-raw-sql.mjs';

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

const rawQuery = (name: string) =>
  `\`${name}\` is Prisma's raw SQL API (untyped rows). Write the statement with Kysely and run it on the client's or ` +
  "the transaction's `$kysely()` (docs/adr/0135).";
const fragment = (name: string) =>
  `\`Prisma.${name}\` builds SQL for Prisma's raw API. Write the statement with Kysely (its \`sql\` template for what ` +
  'the query builder cannot say) and run it on `$kysely()` (docs/adr/0135).';

ruleTester.run('no-prisma-raw-sql', rule, {
  valid: [
    'await sql`SELECT 1`.execute(this.prisma.$kysely());',
    "await tx.$kysely().selectFrom('numbers').select(['id']).execute();",
    // Declaring what a client has is no call of it (libs/persistence's Kysely driver declares it; it alone calls it).
    'interface RawQueryClient { $queryRawUnsafe(sql: string, ...values: unknown[]): Promise<unknown> }',
    '// never tx.$queryRaw`...`: write Kysely',
    "const message = 'Invalid `prisma.$queryRaw()` invocation';",
    'const json: Prisma.InputJsonValue = value; const none = Prisma.DbNull;',
    'const sql = other.sql; const joined = path.join(a, b);',
  ],
  invalid: [
    { code: 'await tx.$queryRaw`SELECT 1`;', errors: [{ message: rawQuery('$queryRaw'), column: 10 }] },
    { code: 'await this.prisma.$executeRaw`UPDATE x`;', errors: [{ message: rawQuery('$executeRaw') }] },
    { code: "await p.$queryRawUnsafe('SELECT 1');", errors: [{ message: rawQuery('$queryRawUnsafe') }] },
    { code: "await p.$executeRawUnsafe('DELETE FROM x');", errors: [{ message: rawQuery('$executeRawUnsafe') }] },
    { code: 'await p.$queryRawTyped(listNumbers(accountId));', errors: [{ message: rawQuery('$queryRawTyped') }] },
    { code: "await p['$queryRaw']`SELECT 1`;", errors: [{ message: rawQuery('$queryRaw') }] },
    { code: "await p?.$executeRawUnsafe('UPDATE x');", errors: [{ message: rawQuery('$executeRawUnsafe') }] },
    {
      code: 'const run = this.prisma.$queryRawUnsafe.bind(this.prisma);',
      errors: [{ message: rawQuery('$queryRawUnsafe') }],
    },
    { code: 'const { $queryRaw } = this.prisma;', errors: [{ message: rawQuery('$queryRaw') }] },
    { code: 'const part = Prisma.sql`a = ${1}`;', errors: [{ message: fragment('sql') }] },
    { code: 'const part = Prisma.raw(column);', errors: [{ message: fragment('raw') }] },
    { code: "const list = Prisma.join(ids, ', ');", errors: [{ message: fragment('join') }] },
    {
      code: 'await tx.$queryRaw`SELECT * FROM x WHERE ${Prisma.sql`a = ${1}`}`;',
      errors: [{ message: rawQuery('$queryRaw') }, { message: fragment('sql') }],
    },
  ],
});
