import { MAX_STORED_ID, ServiceError } from '@switchboard/contracts';
import type { RpcContext } from '@switchboard/messaging';

/** The account a request acts for: set by the gateway after it authenticated the key, never taken from a body. */
export function accountOf(ctx: RpcContext): string {
  if (!ctx.accountId) throw new ServiceError('unauthorized', 'The request carries no authenticated account.');
  return ctx.accountId;
}

/** Whether an integer can be a row id here (PostgreSQL `integer` sequences): larger or smaller ones name nothing. */
export function isStoredId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_STORED_ID;
}

export function notFound(what: 'claim' | 'found item'): ServiceError {
  return new ServiceError('not_found', `No ${what} with that id at this location.`);
}
