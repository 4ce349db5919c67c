import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type Driver,
  type RawBuilder,
} from 'kysely';
import prismaKysely from 'prisma-extension-kysely';

/**
 * Hand-written SQL with generated types, through the app's Prisma client (ADR 0135). Statements are Kysely, over the
 * table types that `prisma-kysely` generates from the app's `schema.prisma` into `src/generated/kysely`, and run on
 * the client's `$kysely` (`prisma-extension-kysely`): on the client, or on `tx.$kysely` inside the caller's Prisma
 * interactive transaction. Kysely's driver there is the Prisma client itself (its raw-query path), so there is one
 * connection pool, one transaction style and one error shape per app.
 */
export type SqlStatement<Row> = { compile(): CompiledQuery<Row> } | RawBuilder<Row>;

function postgresDialect(createDriver: () => Driver) {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver,
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/**
 * The Prisma client extension that gives an app's client, and each of its interactive transactions, `$kysely`: a
 * `Kysely<DB>` whose statements run through that client or that transaction (`prisma-extension-kysely`). Kysely's own
 * transactions are not used: a transaction is Prisma's `$transaction`, and `tx.$kysely` runs inside it.
 */
export function kyselyExtension<DB>() {
  const withKysely = prismaKysely<DB>({
    kysely: (driver) => new Kysely<DB>({ dialect: postgresDialect(() => driver) }),
  });
  return ((client: unknown) => eachTransactionItsOwnKysely(withKysely(client))) as typeof withKysely;
}

/**
 * `prisma-extension-kysely` 4.0.0 hands each interactive transaction its Kysely by assigning `tx.$kysely`, but Prisma 7's
 * transaction client writes what is assigned to it through to an object every transaction of the client shares: with
 * two transactions open, `tx.$kysely` of the first ran its statements in the second, committed or not (numbers.e2e-spec's
 * racing provisions failed with "Transaction already closed"). The extension assigns it and calls the work at once,
 * synchronously, so the work here reads it then, before any other transaction can replace it, and hands on a view of
 * `tx` that keeps that Kysely (`kysely.int-spec.ts`, "keeps each of several open transactions on its own Kysely").
 */
function eachTransactionItsOwnKysely<Client extends object>(client: Client): Client {
  type Transactional = { $transaction(...args: unknown[]): unknown };
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== '$transaction' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const [work, ...options] = args;
        if (typeof work !== 'function') return (value as Transactional['$transaction']).apply(target, args);
        return (value as Transactional['$transaction']).call(
          target,
          (tx: { $kysely: unknown }) => {
            const own = tx.$kysely;
            return (work as (tx: unknown) => unknown)(
              new Proxy(tx, { get: (t, p, r): unknown => (p === '$kysely' ? own : Reflect.get(t, p, r)) }),
            );
          },
          ...options,
        );
      };
    },
  });
}

const compiler = new Kysely<unknown>({ dialect: postgresDialect(() => new DummyDriver()) });

/**
 * A Kysely that only builds and compiles (Kysely's "splitting build, compile and execute"), over an app's generated
 * tables: for the statements an app builds ahead of a request (`prebuiltStatement`) or exports as text (the
 * benchmark's floor runs the services' own statements). Run what it builds with `$kysely.executeQuery(statement)`.
 */
export function sqlBuilder<DB>(): Kysely<DB> {
  return compiler as unknown as Kysely<DB>;
}

/** The statement's text and parameters (`$1`, `$2`, ... placeholders). */
export function compileSql<Row>(statement: SqlStatement<Row>): CompiledQuery<Row> {
  return 'isRawBuilder' in statement ? statement.compile(compiler) : statement.compile();
}

/**
 * A statement Kysely builds and compiles once, for those run on every request: the function returned gives it for
 * new arguments by putting them in their parameters' places, without building it again (building a query and
 * compiling it cost numbers-billing about 6% of its busy time on `GET /v1/numbers`), ready for
 * `$kysely.executeQuery`. Each argument must reach the statement as one parameter, as given (not converted or combined
 * in the builder): `placeholders` are one value per argument, distinct from each other and from every constant of the
 * statement (such as `'\u0000account'` or `-1`), and an argument whose placeholder is not found among the compiled
 * parameters fails here, at start-up.
 */
export function prebuiltStatement<Args extends unknown[], Row>(
  build: (...args: Args) => SqlStatement<Row>,
  placeholders: Args,
): (...args: Args) => { compile(): CompiledQuery<Row> } {
  if (new Set(placeholders).size !== placeholders.length)
    throw new Error('prebuiltStatement: placeholders must differ');
  const compiled = compileSql(build(...placeholders));
  const places = compiled.parameters.map((value) => placeholders.indexOf(value as Args[number]));
  placeholders.forEach((_, index) => {
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
