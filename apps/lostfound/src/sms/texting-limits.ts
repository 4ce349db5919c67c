import { Inject, Injectable } from '@nestjs/common';
import { ServiceError, phoneCountry } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import { LOSTFOUND_CONFIG } from '../config/tokens';
import { todayUtc } from '../common/dates';
import type { LostfoundConfig } from '../config/lostfound.config';
import type { Tx } from '../prisma/lostfound-prisma';
import { DailyTextCountsRepository, countKey, type TextCountKey } from './daily-text-counts.repository';

/** A claim a new item matched, as far as texting it goes. */
export interface TextCandidate {
  id: number;
  /** E.164. */
  claimant_phone: string;
}

export interface TextingRequest {
  accountId: string;
  location: { id: number; sms_countries: readonly string[] };
  /** The matched claims, best match first: a phone with several is texted about the best one. */
  claims: readonly TextCandidate[];
}

/**
 * The texting rule (docs/adr/0053-lostfound-search-matching-and-texts.md), applied in the transaction that logs an item:
 * - a claimant whose phone is not of a country the location allows (US and CA by default) is not texted;
 * - a claimant phone gets one text about one item (for its best-matching claim), and at most
 *   `textsPerPhonePerDay` texts a UTC day, all accounts together; beyond, that claimant is not texted (the item
 *   is still logged: the phone is the claimant's, not the caller's);
 * - an account causes at most `textsPerAccountPerDay` texts a UTC day: an item whose texts would go beyond is
 *   refused with 429 `text_limit`, and the transaction stores nothing.
 * A text refused by a rule is never queued, so it is not sent later either.
 */
@Injectable()
export class TextingLimits {
  constructor(
    private readonly counts: DailyTextCountsRepository,
    @Inject(LOSTFOUND_CONFIG) private readonly config: LostfoundConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The ids of the claims to text; counts them against today's limits. */
  async allow(tx: Tx, request: TextingRequest, day: string = todayUtc()): Promise<Set<number>> {
    const countries = new Set(request.location.sms_countries);
    const reachable = request.claims.filter((claim) => countries.has(phoneCountry(claim.claimant_phone) ?? ''));
    const texted = new Set<number>();
    if (reachable.length === 0) {
      this.report(request, reachable.length, texted.size);
      return texted;
    }

    const account: TextCountKey = { scope: 'account', subject: request.accountId };
    const phones = [...new Set(reachable.map((claim) => claim.claimant_phone))];
    const phoneKeys = phones.map((phone): TextCountKey => ({ scope: 'phone', subject: phone }));
    await this.counts.forgetBefore(tx, day);
    const counted = await this.counts.lock(tx, day, [account, ...phoneKeys]);

    const sentToPhone = new Map(
      phones.map((phone) => [phone, counted.get(countKey({ scope: 'phone', subject: phone })) ?? 0]),
    );
    const textedPhones = new Set<string>();
    for (const claim of reachable) {
      // One text per phone about one item, for its best claim: more would say the same thing again.
      if (textedPhones.has(claim.claimant_phone)) continue;
      if (sentToPhone.get(claim.claimant_phone)! >= this.config.textsPerPhonePerDay) continue;
      textedPhones.add(claim.claimant_phone);
      texted.add(claim.id);
    }

    const sentByAccount = counted.get(countKey(account)) ?? 0;
    if (sentByAccount + texted.size > this.config.textsPerAccountPerDay) {
      throw new ServiceError(
        'text_limit',
        `This item would text ${texted.size} claimant(s), beyond this account's limit of ` +
          `${this.config.textsPerAccountPerDay} texts a day (${sentByAccount} sent today, UTC); nothing was stored. ` +
          'Log it with text_claimants: false to store it without texting, or again tomorrow.',
      );
    }
    await this.counts.add(tx, day, [
      { ...account, texts: texted.size },
      ...[...textedPhones].map((phone) => ({ scope: 'phone' as const, subject: phone, texts: 1 })),
    ]);
    this.report(request, reachable.length, texted.size);
    return texted;
  }

  /** What the rule held back, without phone numbers (they stay out of logs). */
  private report(request: TextingRequest, reachable: number, texted: number): void {
    const outsideCountries = request.claims.length - reachable;
    const heldForPhone = reachable - texted;
    if (outsideCountries === 0 && heldForPhone === 0) return;
    this.logger.info(
      { location_id: request.location.id, texted, outside_countries: outsideCountries, held_for_phone: heldForPhone },
      'claimants not texted about a match (texting rule)',
    );
  }
}
