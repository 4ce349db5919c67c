// PostgreSQL for the benchmarks and fault tests: the server they use (TEST_DATABASE_URL), their throwaway databases on
// it, and the indexes a bulk load drops and builds again. A connection per call: nothing here is on a measured path.
import { performance } from 'node:perf_hooks';
import { require } from './common.mjs';
import { round } from './stats.mjs';

/** The server, its maintenance database in the path. */
const SERVER_URL = process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Database `name` on the server of `server`. */
export function databaseUrl(name, server = SERVER_URL) {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `work(client)` on a connection of its own to `url`, closed afterwards. */
export async function withClient(url, work) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** One statement on the server's maintenance database: CREATE and DROP DATABASE, the server's catalogs. */
export const onServer = (sql, params) => withClient(SERVER_URL, (db) => db.query(sql, params));

export const createDatabase = (name) => onServer(`CREATE DATABASE "${name}"`);

/** Drops database `name`, its open connections closed. */
export const dropDatabase = (name) => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);

/**
 * Of `names`, the benchmark databases (`sb_bench_<start in base-36 ms>_...`) a run started more than an hour before
 * `now`: left by a run that crashed, for the next run to drop. A name whose stamp is a word reads as a stamp too.
 */
export function staleBenchDatabases(names, now = Date.now()) {
  return names.filter((name) => {
    const stamp = /^sb_bench_([0-9a-z]+)_/.exec(name)?.[1];
    return stamp !== undefined && parseInt(stamp, 36) < now - 3_600_000;
  });
}

/**
 * Drops the keys and indexes of `tables` and the foreign keys to and from them, and answers their definitions (from
 * the catalog, as the migrations made them) for `rebuildIndexes`: a bulk load without them, each built once after
 * it, is minutes faster than maintaining them row by row (the GIN index above all).
 */
export async function dropIndexes(db, tables) {
  const { rows: constraints } = await db.query(
    `SELECT conname AS name, conrelid::regclass::text AS tbl, contype AS type, pg_get_constraintdef(oid) AS def
       FROM pg_constraint
      WHERE (conrelid = ANY($1::regclass[]) AND contype IN ('p', 'u', 'f')) OR (confrelid = ANY($1::regclass[]) AND contype = 'f')`,
    [tables],
  );
  const { rows: indexes } = await db.query(
    `SELECT i.indexrelid::regclass::text AS name, i.indrelid::regclass::text AS tbl, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
      WHERE i.indrelid = ANY($1::regclass[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid)`,
    [tables],
  );
  // Foreign keys first: they need the keys they reference.
  const foreignFirst = [...constraints.filter((c) => c.type === 'f'), ...constraints.filter((c) => c.type !== 'f')];
  for (const c of foreignFirst) await db.query(`ALTER TABLE ${c.tbl} DROP CONSTRAINT "${c.name}"`);
  for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);
  return { constraints, indexes };
}

/**
 * The statements that put `dropIndexes`' definitions back, as [{ name, sql }] in three groups: `first` and `second`
 * run at once on two connections (the GIN indexes, the longest builds, beside the other indexes), `last` after both
 * (the foreign keys, once the keys they reference are back). A table's keys are built beside the GIN index when it has
 * none of its own, after its other indexes otherwise.
 */
export function rebuildPlan({ constraints, indexes }) {
  const add = (c) => ({ name: c.name, sql: `ALTER TABLE ${c.tbl} ADD CONSTRAINT "${c.name}" ${c.def}` });
  const build = (index) => ({ name: index.name, sql: index.def });
  const gin = indexes.filter((index) => / USING gin /i.test(index.def));
  const ginTables = new Set(gin.map((index) => index.tbl));
  const keys = constraints.filter((c) => c.type !== 'f');
  return {
    first: [...gin.map(build), ...keys.filter((c) => !ginTables.has(c.tbl)).map(add)],
    second: [
      ...keys.filter((c) => ginTables.has(c.tbl)).map(add),
      ...indexes.filter((index) => !gin.includes(index)).map(build),
    ],
    last: constraints.filter((c) => c.type === 'f').map(add),
  };
}

/**
 * Builds `rebuildPlan(saved)` on connections `connect(work)` gives, without parallel workers (two connections on two
 * cores); answers the seconds each index and key took, and tells `onBuilt(name, seconds)` as each is done.
 */
export async function rebuildIndexes(saved, connect, onBuilt) {
  const plan = rebuildPlan(saved);
  const seconds = {};
  const build = (statements) =>
    connect(async (db) => {
      await db.query(`SET maintenance_work_mem = '1GB'; SET max_parallel_maintenance_workers = 0`);
      for (const { name, sql } of statements) {
        const started = performance.now();
        await db.query(sql);
        seconds[name] = round((performance.now() - started) / 1000, 1);
        onBuilt?.(name, seconds[name]);
      }
    });
  await Promise.all([build(plan.first), build(plan.second)]);
  await build(plan.last);
  return seconds;
}
