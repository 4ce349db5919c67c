import { isDatabaseUnavailable } from '@switchboard/persistence';

/** Shaped as Prisma 7 throws them through @prisma/adapter-pg (seen with a database refusing connections). */
function prismaError(code: string, cause: object): Error {
  return Object.assign(new Error('Invalid `prisma.$queryRaw()` invocation'), {
    code,
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause } },
  });
}

describe('isDatabaseUnavailable', () => {
  it('recognises a database that refuses connections or cannot be reached, through Prisma', () => {
    const refusing = {
      kind: 'postgres',
      code: '55000',
      message: 'database "x" is not currently accepting connections',
      severity: 'FATAL',
    };
    expect(isDatabaseUnavailable(prismaError('P2010', refusing))).toBe(true);
    expect(isDatabaseUnavailable(prismaError('P2039', refusing))).toBe(true);
    expect(
      isDatabaseUnavailable(prismaError('P2010', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 1 })),
    ).toBe(true);
    expect(isDatabaseUnavailable(prismaError('P2010', { kind: 'ConnectionClosed' }))).toBe(true);
    expect(
      isDatabaseUnavailable(
        prismaError('P2010', {
          kind: 'postgres',
          code: '57P01',
          message: 'terminating connection due to administrator command',
        }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('Timed out fetching a new connection from the connection pool'), { code: 'P2024' }),
      ),
    ).toBe(true);
  });

  it('recognises pg and socket errors, also as the cause of another error', () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error('order failed', { cause: Object.assign(new Error('x'), { code: '08006' }) })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })])),
    ).toBe(true);
  });

  it('does not take a rejected statement or a bug for an outage', () => {
    expect(
      isDatabaseUnavailable(
        prismaError('P2002', { kind: 'UniqueConstraintViolation', constraint: { fields: ['id'] } }),
      ),
    ).toBe(false);
    expect(
      isDatabaseUnavailable(
        prismaError('P2010', {
          kind: 'postgres',
          code: '55000',
          message: 'cannot refresh materialized view concurrently',
        }),
      ),
    ).toBe(false);
    expect(
      isDatabaseUnavailable(
        prismaError('P2010', { kind: 'postgres', code: '42601', message: 'syntax error at or near "SELEC"' }),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});
