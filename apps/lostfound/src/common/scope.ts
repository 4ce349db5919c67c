import { MAX_STORED_ID, ServiceError } from '@switchboard/contracts';

/** Whether an integer can be a row id here (PostgreSQL `integer` sequences): larger or smaller ones name nothing. */
export function isStoredId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_STORED_ID;
}

export function notFound(what: 'claim' | 'found item'): ServiceError {
  return new ServiceError('not_found', `No ${what} with that id at this location.`);
}
