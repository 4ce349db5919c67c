import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

interface ScriptRunner {
  exec?(sql: string): Promise<unknown>;
  query(sql: string): Promise<unknown>;
}

/**
 * Migration scripts go to the server whole, and are waited for. Prisma's adapters do neither: `PrismaPg`
 * splits a script on every `;` (so a `;` in a comment, a string or a function body breaks the migration) and
 * `PrismaPGlite` does not await it (a failing statement would pass unnoticed). A multi-statement simple query
 * runs a script exactly as `psql -f` would.
 */
export function wholeScriptAdapter(
  factory: SqlMigrationAwareDriverAdapterFactory,
): SqlMigrationAwareDriverAdapterFactory {
  const wrap = async (connecting: Promise<SqlDriverAdapter>): Promise<SqlDriverAdapter> => {
    const adapter = await connecting;
    const holder = adapter as unknown as {
      underlyingDriver?: () => unknown;
      client?: unknown;
      onError?: (error: unknown) => never;
    };
    const runner = (
      typeof holder.underlyingDriver === 'function' ? holder.underlyingDriver() : holder.client
    ) as ScriptRunner;
    const executeScript = async (script: string): Promise<void> => {
      try {
        if (typeof runner.exec === 'function') await runner.exec(script);
        else await runner.query(script);
      } catch (error) {
        // The adapter's own conversion into a DriverAdapterError, so the engine reports PostgreSQL's message.
        if (typeof holder.onError === 'function') holder.onError.call(adapter, error);
        throw error;
      }
    };
    return new Proxy(adapter, {
      get(target, property) {
        if (property === 'executeScript') return executeScript;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => wrap(factory.connect()),
    connectToShadowDb: () => wrap(factory.connectToShadowDb()),
  };
}
