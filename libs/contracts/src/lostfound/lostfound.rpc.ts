import { defineRpc } from '../messaging/rpc';
import { ClaimCreated, ClaimDetail, ClaimPage, FileClaimCommand, GetClaimQuery, ListClaimsQuery, ReuniteCommand, Reunited } from './claim.dto';
import { FoundItemDetail, FoundItemView, FoundItemPage, GetFoundItemQuery, ListFoundItemsQuery, LogFoundItemCommand } from './found-item.dto';
import { ListSmsQuery, SmsList } from './sms.dto';

/** Account-scoped (the `sb-account-id` header): every request names a `location_id` of that account. */
export const FoundItemsRpc = {
  log: defineRpc<LogFoundItemCommand, FoundItemView>('lostfound.v1.found-items.log', LogFoundItemCommand),
  list: defineRpc<ListFoundItemsQuery, FoundItemPage>('lostfound.v1.found-items.list', ListFoundItemsQuery),
  get: defineRpc<GetFoundItemQuery, FoundItemDetail>('lostfound.v1.found-items.get', GetFoundItemQuery),
} as const;

export const ClaimsRpc = {
  file: defineRpc<FileClaimCommand, ClaimCreated>('lostfound.v1.claims.file', FileClaimCommand),
  list: defineRpc<ListClaimsQuery, ClaimPage>('lostfound.v1.claims.list', ListClaimsQuery),
  get: defineRpc<GetClaimQuery, ClaimDetail>('lostfound.v1.claims.get', GetClaimQuery),
  reunite: defineRpc<ReuniteCommand, Reunited>('lostfound.v1.claims.reunite', ReuniteCommand),
} as const;

/** Operator only: the texts the simulated SMS provider sent. */
export const SimulatedSmsRpc = {
  list: defineRpc<ListSmsQuery, SmsList>('lostfound.v1.sms.list', ListSmsQuery),
} as const;
