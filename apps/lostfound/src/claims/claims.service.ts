import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ClaimFiledEvent,
  ServiceError,
  normalizePhone,
  type ClaimCandidateList,
  type ClaimCreated,
  type ClaimSource,
  type ClaimDetail,
  type ClaimPage,
  type FileClaimCommand,
  type GetClaimQuery,
  type ListClaimsQuery,
} from '@switchboard/contracts';
import { requireAccount, writeOutboxEvent, type RpcContext } from '@switchboard/messaging';
import { OutboxRelay } from '@switchboard/service-runtime';
import { categorise, normalizeTerm } from '../categories/category-vocabulary';
import { isStoredId, notFound } from '../common/scope';
import { text } from '../common/text';
import { toPage } from '../found-items/found-item.view';
import { FoundItemsRepository, type FoundItemRow } from '../found-items/found-items.repository';
import type { LocationRecord } from '../locations/locations.repository';
import { LocationsService } from '../locations/locations.service';
import { MAX_LISTED_MATCHES } from '../matching/match-rule';
import { MatchesRepository, type ListedMatchRow } from '../matching/matches.repository';
import { MatchingService, type Scored } from '../matching/matching.service';
import { LostfoundTransactions } from '../prisma/lostfound-prisma';
import { anyWordTsQuery } from '../search/search-query';
import { toClaimCreated, toClaimDetail, toClaimView } from './claim.view';
import { ClaimsRepository, type ClaimRow } from './claims.repository';

/** What a claim says, from any source (the API's body; the claimant page's; a phone report's details). */
export interface ClaimInput {
  claimant_name: string;
  claimant_phone: string;
  claimant_email?: string;
  category?: string;
  description?: string;
  color?: string;
  lost_area?: string;
  lost_date?: string;
  proof_note?: string;
  image_url?: string;
}

export interface FileOptions {
  source: ClaimSource;
  callSid?: string;
  correlationId: string;
  /** What an urgent category is told: staff on site for the API, the venue or emergency services for the public. */
  urgentMessage: (category: string) => string;
}

type MatchedItem = Scored<FoundItemRow>;

@Injectable()
export class ClaimsService {
  constructor(
    private readonly transactions: LostfoundTransactions,
    private readonly locations: LocationsService,
    private readonly claims: ClaimsRepository,
    private readonly items: FoundItemsRepository,
    private readonly matches: MatchesRepository,
    private readonly matching: MatchingService,
    private readonly outbox: OutboxRelay,
  ) {}

  /**
   * Files a claim (spec part 4). An urgent category is refused before anything is written or sent. Otherwise
   * the claim is stored with its photo and a `filed` entry, matched against the location's stored items in
   * the same transaction, and `lostfound.claim_filed` is written to the outbox. A low-value claim's answer lists
   * its low-value candidates; a high-value one only says whether there is a match.
   */
  async file(command: FileClaimCommand, ctx: RpcContext): Promise<ClaimCreated> {
    const accountId = requireAccount(ctx);
    const location = await this.locations.require(accountId, command.location_id);
    const filed = await this.fileAt(location, command, {
      source: 'api',
      correlationId: ctx.requestId ?? randomUUID(),
      urgentMessage: (category) =>
        `A lost ${category} is urgent and is not taken as a claim: alert the staff on site at once.`,
    });
    if (!filed) throw new Error('a claim without a call cannot be a repeat');
    const { claim, matched } = filed;

    const listed: ListedMatchRow[] = matched
      .filter(({ row }) => row.value_class === 'low')
      .slice(0, MAX_LISTED_MATCHES)
      .map(({ row }) => ({
        found_item_id: row.id,
        description: row.description,
        color: row.color,
        found_area: row.found_area,
        found_date: row.found_date,
      }));
    return toClaimCreated(claim, matched.length > 0, listed);
  }

  /**
   * Files a claim at a location already checked, whatever its source: the API, the claimant page
   * (docs/adr/0079) or a phone report (docs/adr/0079, with its call SID: null when that call already has its claim).
   * The same rules for all: urgent categories refused with `urgentMessage`, matching in the transaction, the event.
   */
  async fileAt(
    location: LocationRecord,
    input: ClaimInput,
    options: FileOptions,
  ): Promise<{ claim: ClaimRow; matched: MatchedItem[] } | null> {
    const { category, categoryClass, valueClass } = categorise(input.category, input.description);
    if (valueClass === 'urgent') throw new ServiceError('urgent_category', options.urgentMessage(category));
    const phone = normalizePhone(input.claimant_phone);
    if (!phone) throw new ServiceError('invalid_request', 'claimant_phone must be a valid phone number.');
    const lostArea = text(input.lost_area);

    const filed = await this.transactions.run(async (tx) => {
      const claim = await this.claims.insert(tx, {
        location_id: location.id,
        claimant_name: input.claimant_name.trim(),
        claimant_phone: phone,
        claimant_email: text(input.claimant_email),
        category,
        category_class: categoryClass,
        value_class: valueClass,
        description: text(input.description),
        color: text(input.color),
        lost_area: lostArea,
        area_key: normalizeTerm(lostArea),
        lost_date: input.lost_date ?? null,
        proof_note: text(input.proof_note),
        image_url: input.image_url ?? '',
        source: options.source,
        call_sid: options.callSid ?? null,
      });
      if (!claim) return null;
      const candidates = await this.items.candidatesFor(
        tx,
        claim,
        anyWordTsQuery(claim.description, claim.color, claim.lost_area),
      );
      const matched = await this.matching.matchClaim(tx, claim, candidates);
      await writeOutboxEvent(
        tx,
        ClaimFiledEvent,
        {
          account_id: location.account_id,
          location_id: location.id,
          claim_id: claim.id,
          category,
          value_class: valueClass,
          has_match: matched.length > 0,
          filed_at: claim.created_at.toISOString(),
        },
        { correlationId: options.correlationId },
      );
      return { claim, matched };
    });
    this.outbox.kick();
    return filed;
  }

  async list(query: ListClaimsQuery, ctx: RpcContext): Promise<ClaimPage> {
    const location = await this.locations.require(requireAccount(ctx), query.location_id);
    const page = query.page ?? 1;
    const { rows, total } = await this.claims.list(location.id, query, page);
    return toPage(
      rows.map((row) => toClaimView(row, row.has_match)),
      total,
      page,
    );
  }

  async get(query: GetClaimQuery, ctx: RpcContext): Promise<ClaimDetail> {
    const location = await this.locations.require(requireAccount(ctx), query.location_id);
    const claim = isStoredId(query.id) ? await this.claims.findDetail(location.id, query.id) : null;
    if (!claim) throw notFound('claim');
    const listed = claim.value_class === 'low' ? await this.matches.listedFor(claim.id) : [];
    return toClaimDetail(claim, listed);
  }

  /** The desk's candidates of a claim (console only): the stored items it matched, high-value ones included. */
  async candidates(query: GetClaimQuery, ctx: RpcContext): Promise<ClaimCandidateList> {
    const location = await this.locations.require(requireAccount(ctx), query.location_id);
    if (!isStoredId(query.id) || !(await this.claims.exists(location.id, query.id))) throw notFound('claim');
    const rows = await this.matches.candidatesOf(query.id);
    return {
      data: rows.map((row) => ({
        found_item_id: row.found_item_id,
        category: row.category,
        description: row.description,
        color: row.color,
        found_area: row.found_area,
        found_date: row.found_date,
        storage_ref: row.storage_ref,
        value_class: row.value_class,
      })),
      total: rows[0]?.total ?? 0,
    };
  }
}
