import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  DEFAULT_PAGE_LIMIT,
  ServiceError,
  type ListNumbersQuery,
  type NumberList,
  type NumberReleased,
  type NumberView,
  type ServiceNumberStanding,
  type UpdateNumberCommand,
  type WebhookTarget,
  isTestAccount,
  webhookSecretSealContext,
} from '@switchboard/contracts';
import { BoundedMemo, SealedSecretError, requireAccount, sealFor, type EventCause } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { OpenedSecrets } from '../crypto/opened-secrets';
import { SecretBox } from '../crypto/secret-box';
import { LedgerRepository } from '../ledger/ledger.repository';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { TELEPHONY_PROVIDER, type TelephonyProvider } from '../telephony/telephony-provider.port';
import { formatNumberId, parseNumberId } from './number-id';
import { NumberLifecycle } from './number-lifecycle';
import {
  publicWebhookEvents,
  secretContext,
  storedWebhookEvents,
  toNumberView,
  type NumberRecord,
} from './number-record';
import { NumbersRepository, statusRank } from './numbers.repository';
import { WebhookSecretRotation } from './webhook-secret-rotation.service';
import { WebhookUrlPolicy, normalizeWebhookUrl } from './webhook-url';
import { NUMBER_AGENTS, type NumberAgents } from './number-agent.port';

@Injectable()
export class NumbersService implements OnApplicationBootstrap {
  /** The dispatcher asks for a number's secret at every delivery: opened once per sealed value, not each time. */
  private readonly openedSecrets: OpenedSecrets;
  /**
   * And sealed once per stored secret and asker's key: the same sealed value is answered until the secret is
   * rotated or re-sealed at rest (another ciphertext) or the dispatcher's key changes, so its own memo of opened
   * values hits too (docs/adr/0128-webhook-signatures-secrets-and-listen.md).
   */
  private readonly sealedSecrets = new BoundedMemo();

  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly numbers: NumbersRepository,
    private readonly ledger: LedgerRepository,
    private readonly lifecycle: NumberLifecycle,
    private readonly outbox: NumbersOutbox,
    private readonly secrets: SecretBox,
    private readonly webhookUrls: WebhookUrlPolicy,
    private readonly rotation: WebhookSecretRotation,
    @Inject(TELEPHONY_PROVIDER) private readonly provider: TelephonyProvider,
    @Inject(NUMBER_AGENTS) private readonly agents: NumberAgents,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.openedSecrets = new OpenedSecrets(secrets);
  }

  onApplicationBootstrap(): void {
    // After a key rotation, secrets sealed with an older key are sealed again with the current one.
    void this.resealStaleSecrets().catch((err) => this.logger.error({ err }, 're-sealing webhook secrets failed'));
    // Webhook URLs stored before they were normalised are normalised once (ADR 0057); SQL cannot run WHATWG's parser.
    void this.normalizeStoredWebhookUrls().catch((err) =>
      this.logger.error({ err }, 'normalising stored webhook URLs failed'),
    );
  }

  /** `GET /numbers`: active first, then past_due, then released; newest first within each; cursor pages. */
  async list(query: ListNumbersQuery, accountId: string | undefined): Promise<NumberList> {
    const account = requireAccount({ accountId, requestId: undefined });
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    let after: { rank: number; id: bigint } | undefined;
    if (query.starting_after !== undefined) {
      const id = parseCursor(query.starting_after);
      const cursor = await this.numbers.find(id);
      if (!cursor || cursor.account_id !== account)
        throw new ServiceError('invalid_request', 'starting_after must be the id of one of your numbers.');
      after = { rank: statusRank(cursor.status), id };
    }
    const rows = await this.numbers.page(account, limit + 1, after);
    return { data: rows.slice(0, limit).map(toNumberView), has_more: rows.length > limit };
  }

  /**
   * `GET /numbers/{id}`: the number as the list shows it, whatever its status (a released number too, as in the
   * list). Another account's number is answered as unknown (docs/adr/0057-public-api-rules.md).
   */
  async get(id: string, accountId: string | undefined): Promise<NumberView> {
    const account = requireAccount({ accountId, requestId: undefined });
    const numberId = parseNumberId(id);
    const number = await this.numbers.findOwned(account, numberId);
    if (!number) throw numberNotFound(numberId);
    return toNumberView(number);
  }

  /**
   * `PATCH /numbers/{id}`: a new `webhook_url` (checked and normalised as at creation; null removes it) and/or
   * `business_phone`, `webhook_events`, `max_call_minutes`. A change is a new version published as `number.updated`;
   * the same values again change nothing. A released number is final: 409 `number_released`.
   */
  async update(
    command: UpdateNumberCommand,
    ctx: { accountId: string | undefined; requestId: string | undefined },
  ): Promise<NumberView> {
    const accountId = requireAccount(ctx);
    const numberId = parseNumberId(command.id);
    if (
      command.webhook_url === undefined &&
      command.business_phone === undefined &&
      command.webhook_events === undefined &&
      command.max_call_minutes === undefined
    ) {
      throw new ServiceError(
        'invalid_request',
        'The body must set at least one of webhook_url, business_phone, webhook_events and max_call_minutes.',
      );
    }
    const webhookEvents =
      command.webhook_events === undefined ? undefined : storedWebhookEvents(command.webhook_events);
    // Checked before any lock is taken: the check may resolve a host name.
    const webhookUrl =
      typeof command.webhook_url === 'string'
        ? await this.webhookUrls.accept(command.webhook_url)
        : command.webhook_url;
    const cause: EventCause = { correlationId: ctx.requestId ?? randomUUID() };
    const updated = await this.transactions.run(async (tx) => {
      const number = await this.numbers.lockOwned(tx, accountId, numberId);
      if (!number) throw numberNotFound(numberId);
      if (number.status === 'released')
        throw new ServiceError(
          'number_released',
          `${formatNumberId(numberId)} is released; a released number cannot be changed.`,
        );
      const changes: {
        webhook_url?: string | null;
        business_phone?: string;
        webhook_events?: string[];
        max_call_minutes?: number;
      } = {};
      if (webhookEvents !== undefined && webhookEvents.join(',') !== number.webhook_events.join(','))
        changes.webhook_events = webhookEvents;
      if (webhookUrl !== undefined && webhookUrl !== number.webhook_url) changes.webhook_url = webhookUrl;
      if (command.business_phone !== undefined && command.business_phone !== number.business_phone)
        changes.business_phone = command.business_phone;
      if (command.max_call_minutes !== undefined && command.max_call_minutes !== number.max_call_minutes)
        changes.max_call_minutes = command.max_call_minutes;
      if (Object.keys(changes).length === 0) return { number, changed: false };
      if (changes.business_phone !== undefined) await this.agents.businessPhoneChanged(tx, number.id);
      const account = await this.ledger.answeringState(tx, accountId);
      return { number: await this.lifecycle.changeDetails(tx, number, account, changes, cause), changed: true };
    });
    if (updated.changed) {
      this.outbox.kick();
      this.agents.pushSoon();
    }
    return toNumberView(updated.number);
  }

  /**
   * Internal: whether `phoneNumber` was one of ours when a call started at `at`: a number with it that is not
   * released (active or past_due, whenever it was provisioned), or one released after `at` (a call reported late);
   * and since when the number holding it now has held it (the simulator starts its calls within that tenure).
   */
  async serviceNumber(phoneNumber: string, at: Date): Promise<ServiceNumberStanding> {
    const tenures = await this.numbers.tenuresOf(phoneNumber);
    if (tenures.length === 0)
      return { phone_number: phoneNumber, in_service: false, reason: 'unknown', held_since: null };
    const holder = tenures.find((n) => n.status !== 'released');
    const inService =
      holder !== undefined || tenures.some((n) => n.released_at !== null && n.released_at.getTime() > at.getTime());
    return {
      phone_number: phoneNumber,
      in_service: inService,
      reason: inService ? null : 'released',
      held_since: holder ? holder.created_at.toISOString() : null,
    };
  }

  /**
   * `DELETE /numbers/{id}`: final; billing stops, nothing is refunded, the provider gets the number back. Releasing
   * a number already released answers `{ released: true }` again (the request is safe to retry).
   */
  async release(
    id: string,
    ctx: { accountId: string | undefined; requestId: string | undefined },
  ): Promise<NumberReleased> {
    const accountId = requireAccount(ctx);
    const numberId = parseNumberId(id);
    const cause: EventCause = { correlationId: ctx.requestId ?? randomUUID() };
    const outcome = await this.transactions.run(async (tx) => {
      const number = await this.numbers.lockOwned(tx, accountId, numberId);
      if (!number) return null;
      if (number.status === 'released') return { number, now: false };
      const account = await this.ledger.answeringState(tx, accountId);
      return { number: await this.lifecycle.release(tx, number, account, new Date(), cause), now: true };
    });
    if (!outcome) throw numberNotFound(numberId);
    if (outcome.now) {
      this.outbox.kick();
      await this.releaseAtProvider(outcome.number);
      this.agents.pushSoon();
    }
    return { released: true };
  }

  /** Gives a released number back to the provider; a failure is retried by the billing cycle's sweep. */
  async releaseAtProvider(number: Pick<NumberRecord, 'id' | 'phone_number' | 'account_id'>): Promise<boolean> {
    try {
      await this.provider.releaseNumber(number.phone_number, { livemode: !isTestAccount(number.account_id) });
      await this.numbers.markReleasedAtProvider(number.id);
      return true;
    } catch (err) {
      this.logger.warn({ err, number_id: formatNumberId(number.id) }, 'provider release failed; will retry');
      return false;
    }
  }

  /** Retries provider releases that failed. */
  async retryProviderReleases(): Promise<number> {
    let done = 0;
    for (const number of await this.numbers.findUnreleasedAtProvider(100)) {
      if (await this.releaseAtProvider(number)) done += 1;
    }
    return done;
  }

  /**
   * Internal (webhook-dispatcher): where a number's events go, the key that signs them, sealed for the asker's key
   * (the secret never crosses the bus in plaintext), and the event types it is subscribed to.
   */
  async webhookTarget(numberId: string, recipientKey: string): Promise<WebhookTarget> {
    const number = await this.numbers.findWebhookTarget(parseNumberId(numberId));
    if (!number) throw new ServiceError('not_found', `No number ${numberId}.`);
    const id = formatNumberId(number.id);
    const stored = { keyId: number.webhook_secret_key_id, ciphertext: number.webhook_secret_ciphertext };
    const memoKey = `${recipientKey}\n${id}\n${stored.keyId}\n${stored.ciphertext}`;
    let sealed: string;
    try {
      sealed = this.sealedSecrets.get(memoKey, () =>
        sealFor(recipientKey, this.openedSecrets.open(stored, secretContext(number.id)), webhookSecretSealContext(id)),
      );
    } catch (error) {
      if (error instanceof SealedSecretError)
        throw new ServiceError('invalid_request', 'recipient_key is not a usable X25519 public key.');
      throw error;
    }
    // During a rotation's overlap the old secret travels too, sealed the same way (ADR 0128).
    const previous = this.rotation.previousSecret(number.id, number);
    const previousSealed =
      previous === null
        ? null
        : this.sealedSecrets.get(`${recipientKey}\n${id}\nprevious\n${previous}`, () =>
            sealFor(recipientKey, previous, webhookSecretSealContext(id)),
          );
    // The field is there only during an overlap: outside one the reply is as it was before rotation existed.
    return {
      number_id: id,
      webhook_url: number.webhook_url,
      webhook_secret_sealed: sealed,
      webhook_events: publicWebhookEvents(number.webhook_events),
      ...(previousSealed
        ? {
            previous_webhook_secret_sealed: previousSealed,
            // When to stop signing with it: a dispatcher keeps the target no longer (ADR 0075).
            previous_webhook_secret_expires_at: number.previous_webhook_secret_expires_at?.toISOString() ?? null,
          }
        : {}),
    };
  }

  /**
   * Stores every webhook URL of a number not released in its normalised form (`normalizeWebhookUrl`), as a change
   * published with `number.updated`. A URL changed meanwhile by its account is left to that change; one the
   * parser refuses is left as it is and logged (its deliveries fail the egress check at send time). Returns how
   * many were changed; a second run changes none.
   */
  async normalizeStoredWebhookUrls(): Promise<number> {
    let changed = 0;
    let after = 0n;
    for (;;) {
      const batch = await this.numbers.findWithWebhookAfter(after, 500);
      for (const row of batch) {
        const stored = row.webhook_url!;
        let normalised: string;
        try {
          normalised = normalizeWebhookUrl(stored);
        } catch {
          this.logger.warn(
            { number_id: formatNumberId(row.id) },
            'stored webhook_url cannot be normalised; left as it is',
          );
          continue;
        }
        if (normalised === stored) continue;
        const done = await this.transactions.run(async (tx) => {
          const number = await this.numbers.lock(tx, row.id);
          if (!number || number.status === 'released' || number.webhook_url !== stored) return false;
          const account = await this.ledger.answeringState(tx, number.account_id);
          await this.lifecycle.changeDetails(
            tx,
            number,
            account,
            { webhook_url: normalised },
            { correlationId: randomUUID() },
          );
          return true;
        });
        if (done) changed += 1;
      }
      if (batch.length < 500) break;
      after = batch[batch.length - 1].id;
    }
    if (changed > 0) {
      this.outbox.kick();
      this.logger.info({ count: changed }, 'stored webhook URLs normalised');
    }
    return changed;
  }

  async resealStaleSecrets(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.numbers.findSealedWithOtherKey(this.secrets.currentKeyId, 100);
      let progressed = 0;
      for (const number of batch) {
        const old = { keyId: number.webhook_secret_key_id, ciphertext: number.webhook_secret_ciphertext };
        const secret = this.secrets.open(old, secretContext(number.id));
        if (
          await this.numbers.setSealedSecret(number.id, old.keyId, this.secrets.seal(secret, secretContext(number.id)))
        )
          progressed += 1;
      }
      total += progressed;
      if (batch.length < 100 || progressed === 0) break;
    }
    if (total > 0) this.logger.info({ count: total }, 'webhook secrets sealed again with the current key');
    return total;
  }
}

function numberNotFound(id: bigint): ServiceError {
  return new ServiceError('not_found', `No number ${formatNumberId(id)} on this account.`);
}

function parseCursor(value: string): bigint {
  try {
    return parseNumberId(value);
  } catch {
    throw new ServiceError('invalid_request', 'starting_after must be a number id (num_<n>).');
  }
}
