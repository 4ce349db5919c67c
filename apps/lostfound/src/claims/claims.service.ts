import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ClaimFiledEvent,
  ServiceError,
  normalizePhone,
  type ClaimCreated,
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
import { FoundItemsRepository } from '../found-items/found-items.repository';
import { LocationsService } from '../locations/locations.service';
import { MAX_LISTED_MATCHES } from '../matching/match-rule';
import { MatchesRepository, type ListedMatchRow } from '../matching/matches.repository';
import { MatchingService } from '../matching/matching.service';
import { LostfoundTransactions } from '../prisma/lostfound-prisma';
import { anyWordTsQuery } from '../search/search-query';
import { toClaimCreated, toClaimDetail, toClaimView } from './claim.view';
import { ClaimsRepository } from './claims.repository';

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
    const { category, categoryClass, valueClass } = categorise(command.category, command.description);
    if (valueClass === 'urgent') {
      throw new ServiceError(
        'urgent_category',
        `A lost ${category} is urgent and is not taken as a claim: alert the staff on site at once.`,
      );
    }
    const phone = normalizePhone(command.claimant_phone);
    if (!phone) throw new ServiceError('invalid_request', 'claimant_phone must be a valid phone number.');
    const lostArea = text(command.lost_area);

    const { claim, matched } = await this.transactions.run(async (tx) => {
      const claim = await this.claims.insert(tx, {
        location_id: location.id,
        claimant_name: command.claimant_name.trim(),
        claimant_phone: phone,
        claimant_email: text(command.claimant_email),
        category,
        category_class: categoryClass,
        value_class: valueClass,
        description: text(command.description),
        color: text(command.color),
        lost_area: lostArea,
        area_key: normalizeTerm(lostArea),
        lost_date: command.lost_date ?? null,
        proof_note: text(command.proof_note),
        image_url: command.image_url ?? '',
      });
      const candidates = await this.items.candidatesFor(tx, claim, anyWordTsQuery(claim.description, claim.color, claim.lost_area));
      const matched = await this.matching.matchClaim(tx, claim, candidates);
      await writeOutboxEvent(
        tx,
        ClaimFiledEvent,
        {
          account_id: accountId,
          location_id: location.id,
          claim_id: claim.id,
          category,
          value_class: valueClass,
          has_match: matched.length > 0,
          filed_at: claim.created_at.toISOString(),
        },
        { correlationId: ctx.requestId ?? randomUUID() },
      );
      return { claim, matched };
    });
    this.outbox.kick();

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
}
