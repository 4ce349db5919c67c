import { sql } from 'kysely';
import { compileSql, prebuiltStatement, sqlBuilder } from './kysely';

interface Tables {
  items: { id: number; owner: string; status: string; price: number };
}
const db = sqlBuilder<Tables>();

/** A query builder statement with a constant beside its arguments, as the apps write them. */
const page = (owner: string, limit: number) =>
  db
    .selectFrom('items')
    .select(['id', 'price'])
    .where('owner', '=', owner)
    .where('status', '=', 'stored')
    .orderBy('id', 'desc')
    .limit(limit);

describe('prebuiltStatement', () => {
  it('gives the text and parameters that building the statement anew gives, for any arguments', () => {
    const prebuilt = prebuiltStatement(page, ['\u0000owner', -1]);
    for (const [owner, limit] of [
      ['acct_1', 50],
      ['acct_2', 1],
      ['stored', 100],
    ] as const) {
      expect(compileSql(prebuilt(owner, limit))).toMatchObject({
        sql: compileSql(page(owner, limit)).sql,
        parameters: compileSql(page(owner, limit)).parameters,
      });
    }
  });

  it('puts an argument used twice in both places', () => {
    const twice = (owner: string) => sql<{ n: number }>`SELECT ${owner} AS a, ${owner} AS b, ${'x'} AS c`;
    expect(compileSql(prebuiltStatement(twice, ['\u0000owner'])('acct_9')).parameters).toEqual([
      'acct_9',
      'acct_9',
      'x',
    ]);
  });

  it('refuses at once an argument that does not reach the statement as given, and placeholders that repeat', () => {
    const converted = (owner: string, limit: number) => page(owner.toUpperCase(), limit);
    expect(() => prebuiltStatement(converted, ['\u0000owner', -1])).toThrow(/argument 0/);
    const same = (a: number, b: number) => sql`SELECT ${a}, ${b}`;
    expect(() => prebuiltStatement(same, [-1, -1])).toThrow(/differ/);
  });
});
