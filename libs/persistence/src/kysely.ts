import { Prisma } from '@prisma/client/extension';
import {
  DeleteQueryNode,
  DummyDriver,
  InsertQueryNode,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  UpdateQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type RawBuilder,
} from 'kysely';

/**
 * Hand-written SQL with generated types, through the app's Prisma client (ADR 0070). Statements are Kysely, over the
 * table types that `prisma-kysely` generates from the app's `schema.prisma` into `src/generated/kysely`, and run on
 * `$kysely()` of the client, or of the caller's Prisma interactive transaction (`tx.$kysely()`). Kysely compiles; the
 * statement runs on that client's `$queryRawUnsafe`/`$executeRawUnsafe`, so there is one connection pool, one
 * transaction style and one error shape per app.
 */
export type SqlStatement<Row> = { compile(): CompiledQuery<Row> } | RawBuilder<Row>;

/** What Kysely needs of a Prisma client or transaction client: its raw-query path. */
interface RawQueryClient {
  $queryRawUnsafe(sql: string, ...values: unknown[]): Promise<unknown>;
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
}

/**
 * Kysely's connection, as the Prisma client or transaction client it was made for. A write without RETURNING answers
 * the rows it changed (`$executeRawUnsafe`), as Kysely's `numUpdatedRows` and the like expect.
 */
class PrismaRawConnection implements DatabaseConnection {
  constructor(private readonly client: RawQueryClient) {}

  async executeQuery<Row>({ sql, parameters, query }: CompiledQuery): Promise<QueryResult<Row>> {
    const writes = DeleteQueryNode.is(query) || UpdateQueryNode.is(query) || InsertQueryNode.is(query);
    if (writes && !query.returning) {
      return { rows: [], numAffectedRows: BigInt(await this.client.$executeRawUnsafe(sql, ...parameters)) };
    }
    return { rows: (await this.client.$queryRawUnsafe(sql, ...parameters)) as Row[] };
  }

  streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new Error('Kysely through Prisma does not stream: page the statement instead');
  }
}

/**
 * Kysely's driver over one Prisma client or transaction client. Kysely's own transactions are refused: a transaction
 * is Prisma's `$transaction` (libs/persistence `Transactions`), and `tx.$kysely()` runs inside it.
 */
class PrismaRawDriver implements Driver {
  private readonly connection: PrismaRawConnection;

  constructor(client: RawQueryClient) {
    this.connection = new PrismaRawConnection(client);
  }

  init(): Promise<void> {
    return Promise.resolve();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this.connection);
  }
  beginTransaction(): Promise<void> {
    return Promise.reject(
      new Error("Kysely's transactions are not used: open one with the app's Transactions.run, then tx.$kysely()"),
    );
  }
  commitTransaction(): Promise<void> {
    return Promise.reject(new Error("Kysely's transactions are not used"));
  }
  rollbackTransaction(): Promise<void> {
    return Promise.reject(new Error("Kysely's transactions are not used"));
  }
  releaseConnection(): Promise<void> {
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * One PostgreSQL adapter and one query compiler for every Kysely of the process. A compiler keeps state only while it
 * compiles, which is synchronous, so one serves all; and building one (Kysely's visitor sets up a dispatch table of
 * every node kind) cost each transaction's Kysely more than the transaction's own statements took to compile.
 */
const adapter = new PostgresAdapter();
const queryCompiler = new PostgresQueryCompiler();

function postgresDialect(createDriver: () => Driver) {
  return {
    createAdapter: () => adapter,
    createDriver,
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => queryCompiler,
  };
}

/**
 * The Prisma client extension (Prisma's documented `client` component) that gives an app's client, and each of its
 * interactive transactions, `$kysely()`: a `Kysely<DB>` whose statements run through the client or transaction it is
 * called on (`Prisma.getExtensionContext(this)` is that client). One Kysely per client or transaction, made at its
 * first statement and dropped with it (a WeakMap): no Proxy around `$transaction`, nothing assigned to a transaction
 * client, whose properties Prisma 7 shares between the transactions of one client.
 */
export function kyselyExtension<DB>() {
  const kyselies = new WeakMap<object, Kysely<DB>>();
  return Prisma.defineExtension({
    name: 'kysely',
    client: {
      /** Kysely over this client, or over this transaction when called on `tx`. */
      $kysely(): Kysely<DB> {
        const client = Prisma.getExtensionContext(this) as unknown as RawQueryClient & object;
        let kysely = kyselies.get(client);
        if (kysely === undefined) {
          kysely = new Kysely<DB>({ dialect: postgresDialect(() => new PrismaRawDriver(client)) });
          kyselies.set(client, kysely);
        }
        return kysely;
      },
    },
  });
}

const compiler = new Kysely<unknown>({ dialect: postgresDialect(() => new DummyDriver()) });

/**
 * A Kysely that only builds and compiles (Kysely's "splitting build, compile and execute"), over an app's generated
 * tables: for the statements an app builds ahead of a request (`prebuiltStatement`) or exports as text (the
 * benchmark's floor runs the services' own statements). Run what it builds with `$kysely().executeQuery(statement)`.
 */
export function sqlBuilder<DB>(): Kysely<DB> {
  return compiler as unknown as Kysely<DB>;
}

/** The statement's text and parameters (`$1`, `$2`, ... placeholders). */
export function compileSql<Row>(statement: SqlStatement<Row>): CompiledQuery<Row> {
  return 'isRawBuilder' in statement ? statement.compile(compiler) : statement.compile();
}

/** Stands for one argument while a prebuilt statement is built: an object no argument or constant can be equal to. */
class StatementArgument {
  constructor(readonly index: number) {}
}

/**
 * A statement Kysely builds and compiles once, for those run on every request: the function returned gives it for
 * new arguments by putting them in their parameters' places, without building it again (building a query and
 * compiling it cost numbers-billing about 6% of its busy time on `GET /v1/numbers`), ready for
 * `$kysely().executeQuery`. `build` is called once with `arity` stand-ins, one per argument; each argument must reach
 * the statement as one parameter, as given (not converted or combined in the builder), and one that does not fails
 * here, at start-up.
 */
export function prebuiltStatement<Args extends unknown[], Row>(
  build: (...args: Args) => SqlStatement<Row>,
  arity: Args['length'],
): (...args: Args) => { compile(): CompiledQuery<Row> } {
  const standIns = Array.from({ length: arity }, (_, index) => new StatementArgument(index));
  const compiled = compileSql(build(...(standIns as Args)));
  const places = compiled.parameters.map((value) => (value instanceof StatementArgument ? value.index : -1));
  standIns.forEach((_, index) => {
    if (!places.includes(index))
      throw new Error(`prebuiltStatement: argument ${index} does not reach the statement as a parameter of its own`);
  });
  return (...args) => {
    const query: CompiledQuery<Row> = {
      ...compiled,
      parameters: places.map((place, i) => (place >= 0 ? args[place] : compiled.parameters[i])),
    };
    return { compile: () => query };
  };
}
