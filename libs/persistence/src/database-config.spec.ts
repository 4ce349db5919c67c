import * as path from 'node:path';
import {
  dataDirFor,
  databaseUrlFor,
  databaseUrlVariable,
  migrationSlug,
  migrationTimestamp,
  redactUrl,
} from '@switchboard/persistence';

describe('database configuration', () => {
  it('names the URL variable after the app in upper snake case', () => {
    expect(databaseUrlVariable('numbers-billing')).toBe('NUMBERS_BILLING_DATABASE_URL');
    expect(databaseUrlVariable('gateway')).toBe('GATEWAY_DATABASE_URL');
  });

  it('refuses an app name that is not lower kebab case', () => {
    expect(() => databaseUrlVariable('Numbers_Billing')).toThrow('[Numbers_Billing] app name must be lower kebab case');
  });

  it('reads <APP>_DATABASE_URL, treating unset or blank as "use PGlite"', () => {
    const url = 'postgresql://app:secret@db:5432/numbers';
    expect(databaseUrlFor('numbers-billing', { NUMBERS_BILLING_DATABASE_URL: url })).toBe(url);
    expect(databaseUrlFor('numbers-billing', {})).toBeUndefined();
    expect(databaseUrlFor('numbers-billing', { NUMBERS_BILLING_DATABASE_URL: '  ' })).toBeUndefined();
  });

  it('rejects a malformed URL with the app and variable, without echoing the password', () => {
    const env = (value: string) => ({ GATEWAY_DATABASE_URL: value });
    expect(() => databaseUrlFor('gateway', env('localhost:5432/db'))).toThrow(
      '[gateway] GATEWAY_DATABASE_URL must be a postgres:// or postgresql:// URL',
    );
    expect(() => databaseUrlFor('gateway', env('http://u:hunter2@h/db'))).toThrow(/u:\*\*\*@h/);
    expect(() => databaseUrlFor('gateway', env('postgres://u@h'))).toThrow(
      '[gateway] GATEWAY_DATABASE_URL names no database',
    );
    expect(() => databaseUrlFor('gateway', env('::nonsense'))).toThrow(
      '[gateway] GATEWAY_DATABASE_URL is not a valid URL',
    );
  });

  it('puts PGlite in DATA_DIR/<app>, DATA_DIR defaulting to .data under the working directory', () => {
    expect(dataDirFor('lostfound', {})).toBe(path.resolve('.data', 'lostfound'));
    expect(dataDirFor('lostfound', { DATA_DIR: '/var/lib/sb' })).toBe('/var/lib/sb/lostfound');
  });

  it('redacts passwords', () => {
    expect(redactUrl('postgres://u:p@h:5432/d')).toBe('postgres://u:***@h:5432/d');
    expect(redactUrl('garbage')).toBe('<unparseable URL>');
  });
});

describe('migration names', () => {
  it('slugs the name as prisma migrate dev does and stamps it in UTC', () => {
    expect(migrationSlug('Add caller ID!')).toBe('add_caller_id');
    expect(() => migrationSlug('!!!')).toThrow('not usable as a migration name');
    expect(migrationTimestamp(new Date('2026-11-21T05:06:07.890Z'))).toBe('20261121050607');
  });
});
