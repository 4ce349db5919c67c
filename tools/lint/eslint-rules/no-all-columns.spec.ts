import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import rule from './no-all-columns.mjs';

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

const kysely = (name: string, instead: string) =>
  `\`${name}()\` takes every column, and a prepared statement must not change its result columns when a migration ` +
  `adds one: name them (\`${instead}([...])\`, docs/operations.md).`;
const sql = (text: string) =>
  `\`${text}\` takes every column, and a prepared statement must not change its result columns when a migration ` +
  'adds one: name them (docs/operations.md).';

ruleTester.run('no-all-columns', rule, {
  valid: [
    "await tx.$kysely().selectFrom('numbers').select(['id', 'status']).execute();",
    "await db.insertInto('numbers').values(row).returning(['id']).execute();",
    'const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM claims`.execute(db);',
    "const q = 'SELECT n.id, n.phone_number FROM numbers n';",
    // Comments are no statements.
    '// never SELECT * here: name the columns',
    'const product = a * b; const pattern = /SELECT .*/;',
  ],
  invalid: [
    {
      code: "await tx.$kysely().selectFrom('numbers').selectAll().execute();",
      errors: [{ message: kysely('selectAll', 'select'), column: 42 }],
    },
    {
      code: "await db.selectFrom('numbers as n').innerJoin('accounts as a', 'a.id', 'n.account_id').selectAll('n').execute();",
      errors: [{ message: kysely('selectAll', 'select') }],
    },
    {
      code: "await db.insertInto('numbers').values(row).returningAll().execute();",
      errors: [{ message: kysely('returningAll', 'returning') }],
    },
    { code: "const q = 'SELECT * FROM numbers';", errors: [{ message: sql('SELECT *') }] },
    { code: 'const q = sql`UPDATE x SET a = 1 RETURNING a.*`;', errors: [{ message: sql('RETURNING a.*') }] },
    { code: 'const q = sql`SELECT c.*, n.phone_number FROM claimed c`;', errors: [{ message: sql('SELECT c.*') }] },
    { code: 'const q = sql`SELECT n.id, a.* FROM numbers n WHERE id = ${id}`;', errors: [{ message: sql(', a.*') }] },
    {
      code: 'const q = sql`\n  SELECT\n    *\n  FROM numbers WHERE id = ${id}`;',
      errors: [{ message: sql('SELECT *') }],
    },
    { code: "const q = 'select * from numbers';", errors: [{ message: sql('select *') }] },
  ],
});
