import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ReunitedEvent, ServiceError, type ReuniteCommand, type Reunited } from '@switchboard/contracts';
import { requireAccount, writeOutboxEvent, type RpcContext } from '@switchboard/messaging';
import { text } from '../common/text';
import { OutboxRelay } from '@switchboard/service-runtime';
import { isStoredId, notFound } from '../common/scope';
import { FoundItemsRepository } from '../found-items/found-items.repository';
import { LocationsService } from '../locations/locations.service';
import { LostfoundTransactions } from '../prisma/lostfound-prisma';
import { ClaimsRepository } from './claims.repository';

/**
 * `POST /lostfound/claims/{id}/reunite` (spec parts 3-4, docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md). One transaction
 * locks the claim, then the item (always in that order, so two reunites cannot deadlock), checks in the spec's
 * order, and changes both with their timeline entries and the event. Of two reunites of one item, the second
 * waits for the first's lock and then finds the item returned: 409 item_not_available.
 */
@Injectable()
export class ReuniteService {
  constructor(
    private readonly transactions: LostfoundTransactions,
    private readonly locations: LocationsService,
    private readonly claims: ClaimsRepository,
    private readonly items: FoundItemsRepository,
    private readonly outbox: OutboxRelay,
  ) {}

  async reunite(command: ReuniteCommand, ctx: RpcContext): Promise<Reunited> {
    const accountId = requireAccount(ctx);
    const location = await this.locations.require(accountId, command.location_id);
    const verified = command.verified === true;
    if (!isStoredId(command.id)) throw notFound('claim');
    if (!isStoredId(command.found_item_id)) throw notFound('found item');

    await this.transactions.run(async (tx) => {
      const claim = await this.claims.lock(tx, location.id, command.id);
      if (!claim) throw notFound('claim');
      const item = await this.items.lock(tx, location.id, command.found_item_id);
      if (!item) throw notFound('found item');
      // High-value on either side (the claim, or the item itself) needs staff-checked proof; nothing changes without it.
      if ((claim.value_class !== 'low' || item.value_class !== 'low') && !verified) {
        throw new ServiceError(
          'verification_required',
          'This is a high-value item: confirm proof of ownership and send verified: true.',
        );
      }
      if (claim.status !== 'open')
        throw new ServiceError('claim_not_open', `Claim ${claim.id} is ${claim.status}, not open.`);
      if (item.status !== 'stored')
        throw new ServiceError('item_not_available', `Item ${item.id} is ${item.status}, not in storage.`);

      await this.items.markReturned(
        tx,
        item.id,
        `Released to claim #${claim.id}${verified ? '; proof of ownership verified by staff' : ''}.`,
        text(command.acted_by) || 'API',
      );
      await this.claims.markReunited(
        tx,
        claim.id,
        `Reunited with found item #${item.id}.`,
        text(command.acted_by) || 'API',
      );
      await writeOutboxEvent(
        tx,
        ReunitedEvent,
        {
          account_id: accountId,
          location_id: location.id,
          claim_id: claim.id,
          found_item_id: item.id,
          category: claim.category,
          verified,
          reunited_at: new Date().toISOString(),
        },
        { correlationId: ctx.requestId ?? randomUUID() },
      );
    });
    this.outbox.kick();
    return { reunited: true, claim_id: command.id, found_item_id: command.found_item_id, verified };
  }
}
