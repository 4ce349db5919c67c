import { defineRpc } from '../messaging/rpc';
import {
  ClaimCandidateList,
  ClaimCreated,
  ClaimDetail,
  ClaimPage,
  FileClaimCommand,
  GetClaimQuery,
  ListClaimsQuery,
  ReuniteCommand,
  Reunited,
} from './claim.dto';
import { ClaimantClaimFiled, ClaimantFileCommand, ClaimantLocationView, ClaimantSlugQuery } from './claimant.dto';
import {
  DisposalCommand,
  FoundItemDetail,
  FoundItemView,
  FoundItemPage,
  GetFoundItemQuery,
  ListFoundItemsQuery,
  LogFoundItemCommand,
} from './found-item.dto';
import { LinkPhoneLineCommand, PhoneLineView, UnlinkPhoneLineCommand } from './phone-line.dto';
import { ListSmsQuery, SmsList } from './sms.dto';

/** Account-scoped (the `sb-account-id` header): every request names a `location_id` of that account. */
export const FoundItemsRpc = {
  log: defineRpc<LogFoundItemCommand, FoundItemView>('lostfound.v1.found-items.log', LogFoundItemCommand),
  list: defineRpc<ListFoundItemsQuery, FoundItemPage>('lostfound.v1.found-items.list', ListFoundItemsQuery),
  get: defineRpc<GetFoundItemQuery, FoundItemDetail>('lostfound.v1.found-items.get', GetFoundItemQuery),
  /** API extension (docs/adr/0079): donate or dispose of an item held past its location's hold period. */
  dispose: defineRpc<DisposalCommand, FoundItemDetail>('lostfound.v1.found-items.dispose', DisposalCommand),
} as const;

/**
 * The claimant page (docs/adr/0079): no account; the location is named by its public slug, and an unknown slug
 * and a location without lost-and-found answer the same 404 not_found.
 */
export const ClaimantRpc = {
  location: defineRpc<ClaimantSlugQuery, ClaimantLocationView>('lostfound.v1.claimant.location', ClaimantSlugQuery),
  file: defineRpc<ClaimantFileCommand, ClaimantClaimFiled>('lostfound.v1.claimant.file', ClaimantFileCommand),
} as const;

/** Account-scoped: a number's lost-and-found line (docs/adr/0079). The gateway checks the number is the account's. */
export const PhoneLinesRpc = {
  link: defineRpc<LinkPhoneLineCommand, PhoneLineView>('lostfound.v1.phone-lines.link', LinkPhoneLineCommand),
  unlink: defineRpc<UnlinkPhoneLineCommand, PhoneLineView>('lostfound.v1.phone-lines.unlink', UnlinkPhoneLineCommand),
  get: defineRpc<UnlinkPhoneLineCommand, PhoneLineView>('lostfound.v1.phone-lines.get', UnlinkPhoneLineCommand),
} as const;

export const ClaimsRpc = {
  file: defineRpc<FileClaimCommand, ClaimCreated>('lostfound.v1.claims.file', FileClaimCommand),
  list: defineRpc<ListClaimsQuery, ClaimPage>('lostfound.v1.claims.list', ListClaimsQuery),
  get: defineRpc<GetClaimQuery, ClaimDetail>('lostfound.v1.claims.get', GetClaimQuery),
  reunite: defineRpc<ReuniteCommand, Reunited>('lostfound.v1.claims.reunite', ReuniteCommand),
  /**
   * The console's desk only (docs/adr/0053): the stored items a claim matched, whatever their value class, so the
   * claim page lists exactly what makes `has_match` true. Not routed on `/v1`.
   */
  candidates: defineRpc<GetClaimQuery, ClaimCandidateList>('lostfound.v1.claims.candidates', GetClaimQuery),
} as const;

/** Operator only: the texts the simulated SMS provider sent. */
export const SimulatedSmsRpc = {
  list: defineRpc<ListSmsQuery, SmsList>('lostfound.v1.sms.list', ListSmsQuery),
} as const;
