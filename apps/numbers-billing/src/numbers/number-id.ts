import { ServiceError } from '@switchboard/contracts';

/** `num_<n>` for the database id `<n>`. */
export function formatNumberId(id: bigint): string {
  return `num_${id}`;
}

/** `num_<n>` or `<n>` (spec part 4: both forms appear) to the database id. */
export function parseNumberId(value: string): bigint {
  const match = /^(?:num_)?([1-9]\d{0,17})$/.exec(value);
  if (!match) throw new ServiceError('invalid_request', 'id must be a number id (num_<n> or <n>)');
  return BigInt(match[1]);
}
