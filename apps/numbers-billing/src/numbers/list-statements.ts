import { compileSql } from '@switchboard/persistence';
import { numbersPageStatement } from './numbers.repository';

/**
 * The first page of `GET /v1/numbers` as numbers-billing runs it (parameters: account id, limit), for the benchmark's
 * floor (tools/perf/floors/list-responder.mjs): the floor runs the service's own statement (ADR 0099).
 */
export const NUMBERS_PAGE_SQL = compileSql(numbersPageStatement('', 0)).sql;
