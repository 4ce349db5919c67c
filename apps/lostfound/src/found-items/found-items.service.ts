import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  FoundLoggedEvent,
  ServiceError,
  type DisposalCommand,
  type FoundItemDetail,
  type FoundItemPage,
  type FoundItemView,
  type GetFoundItemQuery,
  type ListFoundItemsQuery,
  type LogFoundItemCommand,
} from '@switchboard/contracts';
import { requireAccount, writeOutboxEvent, type RpcContext } from '@switchboard/messaging';
import { OutboxRelay } from '@switchboard/service-runtime';
import { categorise, normalizeTerm } from '../categories/category-vocabulary';
import { todayUtc } from '../common/dates';
import { isStoredId, notFound } from '../common/scope';
import { text } from '../common/text';
import { LostfoundClock } from '../common/clock';
import { LocationsService } from '../locations/locations.service';
import { MatchingService } from '../matching/matching.service';
import { LostfoundTransactions } from '../prisma/lostfound-prisma';
import { anyWordTsQuery } from '../search/search-query';
import { MatchNotifier } from '../sms/match-notifier';
import { TextingLimits } from '../sms/texting-limits';
import { CLAIM_CANDIDATES, type ClaimCandidates } from './claim-candidates.port';
import { holdUntil, toFoundItemDetail, toFoundItemView, toPage } from './found-item.view';
import { FoundItemsRepository } from './found-items.repository';

@Injectable()
export class FoundItemsService {
  constructor(
    private readonly transactions: LostfoundTransactions,
    private readonly locations: LocationsService,
    private readonly items: FoundItemsRepository,
    @Inject(CLAIM_CANDIDATES) private readonly claims: ClaimCandidates,
    private readonly matching: MatchingService,
    private readonly outbox: OutboxRelay,
    private readonly notifier: MatchNotifier,
    private readonly textingLimits: TextingLimits,
    private readonly clock: LostfoundClock,
  ) {}

  /**
   * Logs a found item (spec part 4): stored, with its primary photo and a `logged` custody entry; open claims of
   * the location are matched against it at once, in the same transaction, and their claimants texted after
   * the commit, within the texting rule (docs/adr/0053: 429 `text_limit` and nothing stored when the account's
   * texts for the day would go beyond its limit); `lostfound.found_logged` goes out through the outbox.
   */
  async log(command: LogFoundItemCommand, ctx: RpcContext): Promise<FoundItemView> {
    const accountId = requireAccount(ctx);
    const location = await this.locations.require(accountId, command.location_id);
    const { category, categoryClass, valueClass } = categorise(command.category, command.description);
    const foundBy = text(command.found_by);
    const storageRef = text(command.storage_ref);
    const foundArea = text(command.found_area);

    const item = await this.transactions.run(async (tx) => {
      const created = await this.items.insert(
        tx,
        {
          location_id: location.id,
          category,
          category_class: categoryClass,
          value_class: valueClass,
          description: command.description.trim(),
          color: text(command.color),
          found_by: foundBy,
          found_area: foundArea,
          area_key: normalizeTerm(foundArea),
          found_date: command.found_date ?? todayUtc(),
          storage_ref: storageRef,
          image_url: command.image_url ?? '',
          photo_urls: command.photo_urls ?? [],
        },
        logNote(foundBy, storageRef, command.acted_by !== undefined),
        text(command.acted_by) || 'API',
      );
      const candidates = await this.claims.candidatesFor(
        tx,
        created,
        anyWordTsQuery(created.description, created.color, created.found_area),
      );
      const matched = await this.matching.matchItem(tx, created, candidates, (claims) =>
        command.text_claimants === false
          ? Promise.resolve(new Set<number>())
          : this.textingLimits.allow(tx, { accountId, location, claims }),
      );
      await writeOutboxEvent(
        tx,
        FoundLoggedEvent,
        {
          account_id: accountId,
          location_id: location.id,
          found_item_id: created.id,
          category: created.category,
          value_class: valueClass,
          found_date: created.found_date,
          matched_claims: matched.length,
          logged_at: created.created_at.toISOString(),
        },
        { correlationId: ctx.requestId ?? randomUUID() },
      );
      return created;
    });
    this.outbox.kick();
    await this.notifier.flush();
    return toFoundItemView(item);
  }

  async list(query: ListFoundItemsQuery, ctx: RpcContext): Promise<FoundItemPage> {
    const location = await this.locations.require(requireAccount(ctx), query.location_id);
    const page = query.page ?? 1;
    const { rows, total, exact } = await this.items.list(location.id, query, page);
    return { ...toPage(rows.map(toFoundItemView), total, page), total_exact: exact };
  }

  async get(query: GetFoundItemQuery, ctx: RpcContext): Promise<FoundItemDetail> {
    const location = await this.locations.require(requireAccount(ctx), query.location_id);
    const item = isStoredId(query.id) ? await this.items.findDetail(location.id, query.id) : null;
    if (!item) throw notFound('found item');
    return toFoundItemDetail(item, location.hold_days);
  }

  /**
   * Donates or disposes of an item (API extension, docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md): only an item
   * still in storage, and only from the day its location's hold period ends (found_date + hold_days, UTC).
   * The item is locked, so a reunite and a disposal of one item cannot both succeed.
   */
  async dispose(command: DisposalCommand, ctx: RpcContext): Promise<FoundItemDetail> {
    const location = await this.locations.require(requireAccount(ctx), command.location_id);
    if (!isStoredId(command.id)) throw notFound('found item');
    const today = todayUtc(this.clock.now());
    await this.transactions.run(async (tx) => {
      const item = await this.items.lock(tx, location.id, command.id);
      if (!item) throw notFound('found item');
      if (item.status !== 'stored') {
        throw new ServiceError(
          'item_not_available',
          `Item ${item.id} is ${item.status}, not in storage: it cannot be ${command.outcome}.`,
        );
      }
      const until = holdUntil(item.found_date, location.hold_days);
      if (today < until) {
        throw new ServiceError(
          'hold_period_not_over',
          `Item ${item.id} was found on ${item.found_date} and this location holds items ${location.hold_days} days: ` +
            `it may be donated or disposed of from ${until}.`,
        );
      }
      const note =
        text(command.note) ||
        (command.outcome === 'donated' ? 'Donated after the hold period.' : 'Disposed of after the hold period.');
      await this.items.markDisposed(tx, item.id, command.outcome, text(command.staff_name) || 'API', note);
    });
    const detail = await this.items.findDetail(location.id, command.id);
    if (!detail) throw notFound('found item');
    return toFoundItemDetail(detail, location.hold_days);
  }
}

function logNote(foundBy: string, storageRef: string, atTheDesk = false): string {
  const parts = [atTheDesk ? 'Logged at the desk.' : 'Logged through the API.'];
  if (foundBy) parts.push(`Found by ${foundBy}.`);
  if (storageRef) parts.push(`Stored at ${storageRef}.`);
  return parts.join(' ');
}
