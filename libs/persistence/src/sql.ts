import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type RawBuilder,
} from 'kysely';

/**
 * Hand-written SQL with generated types (ADR 0070). Statements are written with Kysely, over the table types that
 * `prisma-kysely` generates from the app's `schema.prisma` into `src/generated/kysely` (regenerated with the Prisma
 * client), and run on one of two executors:
 * - the app's Prisma client, or its interactive transaction `tx` (`sqlRows`, `sqlExecute`): Prisma keeps owning
 *   connections, transactions and migrations; the statement goes through its raw-query path, as `$queryRaw` did;
 * - the app's `SqlPool` (`SqlPool.rows`), the plain `pg` pool of the per-request reads (ADR 0051).
 * Kysely here only compiles: it never holds a connection, so a statement costs the same round trips as before.
 */
export type SqlStatement<Row> = { compile(): CompiledQuery<Row> } | RawBuilder<Row>;

/** What running a statement needs of a Prisma client or of its transaction client. */
export interface RawSqlClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

const compiler = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * A Kysely query builder over an app's generated tables (`DB` from `src/generated/kysely/database`). It compiles
 * only: run what it builds with `sqlRows`/`sqlExecute` (Prisma) or `SqlPool.rows`.
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
 * compiling it cost numbers-billing about 6% of its busy time on `GET /v1/numbers`). Each argument must reach the
 * statement as one parameter, as given (not converted or combined in the builder): `placeholders` are one value per
 * argument, distinct from each other and from every constant of the statement (such as `'\u0000account'` or `-1`),
 * and an argument whose placeholder is not found among the compiled parameters fails here, at start-up.
 */
export function prebuiltStatement<Args extends unknown[], Row>(
  build: (...args: Args) => SqlStatement<Row>,
  placeholders: Args,
): (...args: Args) => SqlStatement<Row> {
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

/** Runs a statement through Prisma's raw-query path (the client or a transaction) and returns its rows. */
export async function sqlRows<Row>(
  client: Pick<RawSqlClient, '$queryRawUnsafe'>,
  statement: SqlStatement<Row>,
): Promise<Row[]> {
  const { sql, parameters } = compileSql(statement);
  return client.$queryRawUnsafe<Row[]>(sql, ...parameters);
}

/** Runs a statement through Prisma's raw-query path and returns the number of rows it changed. */
export async function sqlExecute(
  client: Pick<RawSqlClient, '$executeRawUnsafe'>,
  statement: SqlStatement<unknown>,
): Promise<number> {
  const { sql, parameters } = compileSql(statement);
  return client.$executeRawUnsafe(sql, ...parameters);
}
