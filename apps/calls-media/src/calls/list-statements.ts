import { compileSql } from '@switchboard/persistence';
import { callsPageStatement, ordered } from './calls.repository';

/**
 * The first page of `GET /v1/calls` as calls-media runs it (parameters: account id, limit), for the benchmark's floor
 * (tools/perf/floors/list-responder.mjs): the floor runs the service's own statement (ADR 0099).
 */
export const CALLS_PAGE_SQL = compileSql(ordered(callsPageStatement(''), 0)).sql;
