import { preparedStatementNames } from './driver-adapter';

describe('prepared statement names', () => {
  it('names each text once: the same text the same name, another text another name', () => {
    const nameOf = preparedStatementNames();
    const first = nameOf({ sql: 'select "id" from "numbers" where "account_id" = $1' });
    expect(first).toMatch(/^sb_[A-Za-z0-9_-]{27}$/);
    expect(nameOf({ sql: 'select "id" from "numbers" where "account_id" = $1' })).toBe(first);
    expect(nameOf({ sql: 'select "id" from "numbers" where "id" = $1' })).not.toBe(first);
  });

  it('runs texts past the limit unnamed, and keeps the names it gave', () => {
    const nameOf = preparedStatementNames(2);
    const a = nameOf({ sql: 'a' });
    const b = nameOf({ sql: 'b' });
    expect(nameOf({ sql: 'c' })).toBeUndefined();
    expect([nameOf({ sql: 'a' }), nameOf({ sql: 'b' })]).toEqual([a, b]);
  });

  it('gives two processes the same name for the same text', () => {
    expect(preparedStatementNames()({ sql: 'x' })).toBe(preparedStatementNames()({ sql: 'x' }));
  });
});
