import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import { describeError, PersistenceError } from './errors.ts';

type SchemaEngineClass = typeof SchemaEngine;

/** The slice of the WebAssembly global used here (the project's `lib` has no DOM/WebAssembly typings). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => {
    exports: Record<string, unknown>;
  };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

export interface SchemaEngineSession {
  readonly appName: string;
  /** The engine's own adapter factory, connected lazily by the engine. */
  readonly adapter: SqlMigrationAwareDriverAdapterFactory;
  /** Receives the engine's JSON log lines (default: dropped). */
  readonly onLog?: (line: string) => void;
}

// wasm-bindgen keeps module-level state in its glue module: a second instance in one process panics. The
// instance is kept on the global object so that even two copies of this library (src and dist, say) share it.
// Commands from different callers in one process run one at a time (`queue`).
const SHARED = Symbol.for('@switchboard/persistence/schema-engine');
interface Shared {
  engine?: Promise<SchemaEngineClass>;
  queue: Promise<unknown>;
}
const shared: Shared = ((globalThis as { [SHARED]?: Shared })[SHARED] ??= { queue: Promise.resolve() });

function loadSchemaEngineClass(): Promise<SchemaEngineClass> {
  shared.engine ??= instantiateSchemaEngine().catch((error: unknown) => {
    shared.engine = undefined;
    throw error;
  });
  return shared.engine;
}

/**
 * The package's own entry imports the `.wasm` file as an ES module, which Node 20 cannot do, so the glue
 * (`schema_engine_bg.js`) is wired to the module by hand, as `@prisma/internals` does. Its one timer (the
 * advisory-lock timeout) is unref'd so that it never keeps a finished process alive.
 */
async function instantiateSchemaEngine(): Promise<SchemaEngineClass> {
  const runtime = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  const wasmFile = path.join(
    path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
    'schema_engine_bg.wasm',
  );
  const module = new wasmApi.Module(fs.readFileSync(wasmFile));
  const imports: Record<string, unknown> = { ...runtime };
  for (const name of Object.keys(imports)) {
    if (name.startsWith('__wbg_setTimeout_')) {
      imports[name] = (callback: () => void, ms: number) => setTimeout(callback, ms >>> 0).unref();
    }
  }
  const instance = new wasmApi.Instance(module, { './schema_engine_bg.js': imports });
  runtime.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return runtime.SchemaEngine;
}

/**
 * Runs `work` with a fresh engine over `session.adapter`, then frees the engine and disposes every
 * connection the engine opened (the engine does not dispose them itself; a PostgreSQL pool left open keeps
 * the process alive for its idle timeout). Engine and adapter errors come back as `PersistenceError`.
 */
export function withSchemaEngine<R>(
  session: SchemaEngineSession,
  what: string,
  work: (engine: SchemaEngine) => Promise<R>,
): Promise<R> {
  const run = shared.queue.then(() => runEngine(session, what, work));
  shared.queue = run.catch(() => undefined);
  return run;
}

async function runEngine<R>(
  session: SchemaEngineSession,
  what: string,
  work: (engine: SchemaEngine) => Promise<R>,
): Promise<R> {
  const Engine = await loadSchemaEngineClass();
  const connections: SqlDriverAdapter[] = [];
  const inner = session.adapter;
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => remember(connections, await inner.connect()),
    connectToShadowDb: async () => remember(connections, await inner.connectToShadowDb()),
  };
  const bound = bindMigrationAwareSqlAdapterFactory(tracked);
  let engine: SchemaEngine | undefined;
  try {
    engine = await Engine.new({ datamodels: undefined }, (line: string) => session.onLog?.(line), bound);
    return await work(engine);
  } catch (error) {
    throw new PersistenceError(session.appName, `${what} failed: ${engineMessage(error)}`, { cause: error });
  } finally {
    try {
      engine?.free();
    } catch {
      // a panicked engine may refuse to be freed; nothing more to release on its side
    }
    await Promise.allSettled(connections.map((connection) => connection.dispose()));
  }
}

function remember(connections: SqlDriverAdapter[], connection: SqlDriverAdapter): SqlDriverAdapter {
  connections.push(connection);
  return connection;
}

/** Engine messages end with a Rust span trace ("   0: schema_engine_wasm::…"); keep the sentence. */
function engineMessage(error: unknown): string {
  const text = describeError(error);
  const lines = text.split('\n');
  const trace = lines.findIndex((line) => /^\s+\d+: \S+::/.test(line));
  const message = (trace === -1 ? lines : lines.slice(0, trace)).join('\n').trim();
  const migration = /migration_name="([^"]+)"/.exec(text)?.[1];
  return migration && !message.includes(migration) ? `${message} (in migration ${migration})` : message;
}
