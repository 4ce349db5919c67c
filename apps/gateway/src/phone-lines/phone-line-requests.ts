import { NumbersRpc, PhoneLinesRpc, ServiceError, type PhoneLineView } from '@switchboard/contracts';
import type { RpcClient } from '@switchboard/messaging';
import type { CallerOptions } from '../auth';

/**
 * A number's lost-and-found line (docs/adr/0079), as `/v1/lostfound/phone-lines/{id}` and the console's number page
 * ask for it. numbers-billing first says whether the number is the caller's account's (404 not_found otherwise,
 * `num_<n>` or `<n>` resolved to its id); lostfound owns the link and the location rule (404 location_not_found).
 */
export async function linkPhoneLine(
  rpc: RpcClient,
  numberId: string,
  locationId: number,
  caller: CallerOptions,
): Promise<PhoneLineView> {
  const number = await rpc.request(NumbersRpc.get, { id: numberId }, caller);
  if (number.status === 'released')
    throw new ServiceError('number_released', `${number.id} is released; it cannot take calls.`);
  return rpc.request(PhoneLinesRpc.link, { number_id: number.id, location_id: locationId }, caller);
}

export async function getPhoneLine(rpc: RpcClient, numberId: string, caller: CallerOptions): Promise<PhoneLineView> {
  const number = await rpc.request(NumbersRpc.get, { id: numberId }, caller);
  return rpc.request(PhoneLinesRpc.get, { number_id: number.id }, caller);
}

export async function unlinkPhoneLine(rpc: RpcClient, numberId: string, caller: CallerOptions): Promise<PhoneLineView> {
  const number = await rpc.request(NumbersRpc.get, { id: numberId }, caller);
  return rpc.request(PhoneLinesRpc.unlink, { number_id: number.id }, caller);
}
