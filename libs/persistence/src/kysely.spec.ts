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
    const prebuilt = prebuiltStatement(page, 2);
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
    expect(compileSql(prebuiltStatement(twice, 1)('acct_9')).parameters).toEqual(['acct_9', 'acct_9', 'x']);
  });

  it('refuses at once an argument that does not reach the statement as given', () => {
    const converted = (owner: string, limit: number) => page(`${owner}`, limit);
    expect(() => prebuiltStatement(converted, 2)).toThrow(/argument 0/);
    const combined = (owner: string, limit: number) => page(owner, limit + 1);
    expect(() => prebuiltStatement(combined, 2)).toThrow(/argument 1/);
    const unused = (owner: string, _limit: number) => page(owner, 10);
    expect(() => prebuiltStatement(unused, 2)).toThrow(/argument 1/);
  });

  it('keeps a constant equal to an argument apart from it', () => {
    // The value 'stored' is the statement's constant; the owner given may be the same string.
    expect(compileSql(prebuiltStatement(page, 2)('stored', 5)).parameters).toEqual(['stored', 'stored', 5]);
  });
});
