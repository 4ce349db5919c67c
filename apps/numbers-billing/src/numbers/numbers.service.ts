import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  DEFAULT_PAGE_LIMIT,
  ServiceError,
  type ListNumbersQuery,
  type NumberList,
  type NumberReleased,
  type WebhookTarget,
  webhookSecretSealContext,
} from '@switchboard/contracts';
import { BoundedMemo, SealedSecretError, sealFor, type EventCause } from '@switchboard/messaging';
import type { Logger } from 'pino';
import { NUMBERS_BILLING_LOGGER } from '../config/tokens';
import { OpenedSecrets } from '../crypto/opened-secrets';
import { SecretBox } from '../crypto/secret-box';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { NumbersBillingPrisma } from '../prisma/numbers-billing-prisma';
import { TELEPHONY_PROVIDER, type TelephonyProvider } from '../telephony/telephony-provider.port';
import { formatNumberId, parseNumberId } from './number-id';
import { NumberLifecycle } from './number-lifecycle';
import { secretContext, toNumberView, type NumberRecord } from './number-record';
import { NumbersRepository, statusRank } from './numbers.repository';
import { requireAccount } from './provisioning.service';

@Injectable()
export class NumbersService implements OnApplicationBootstrap {
  /** The dispatcher asks for a number's secret at every delivery: opened once per sealed value, not each time. */
  private readonly openedSecrets: OpenedSecrets;
  /**
   * And sealed once per stored secret and asker's key: the same sealed value is answered until the secret is
   * rotated or re-sealed at rest (another ciphertext) or the dispatcher's key changes, so its own memo of opened
   * values hits too (docs/adr/0063-sealed-webhook-secrets.md).
   */
  private readonly sealedSecrets = new BoundedMemo();

  constructor(
    private readonly prisma: NumbersBillingPrisma,
    private readonly numbers: NumbersRepository,
    private readonly lifecycle: NumberLifecycle,
    private readonly outbox: NumbersOutbox,
    private readonly secrets: SecretBox,
    @Inject(TELEPHONY_PROVIDER) private readonly provider: TelephonyProvider,
    @Inject(NUMBERS_BILLING_LOGGER) private readonly logger: Logger,
  ) {
    this.openedSecrets = new OpenedSecrets(secrets);
  }

  onApplicationBootstrap(): void {
    // After a key rotation, secrets sealed with an older key are sealed again with the current one.
    void this.resealStaleSecrets().catch((err) => this.logger.error({ err }, 're-sealing webhook secrets failed'));
  }

  /** `GET /numbers`: active first, then past_due, then released; newest first within each; cursor pages. */
  async list(query: ListNumbersQuery, accountId: string | undefined): Promise<NumberList> {
    const account = requireAccount({ accountId, requestId: undefined });
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    let after: { rank: number; id: bigint } | undefined;
    if (query.starting_after !== undefined) {
      const id = parseCursor(query.starting_after);
      const cursor = await this.numbers.find(id);
      if (!cursor || cursor.account_id !== account) throw new ServiceError('invalid_request', 'starting_after must be the id of one of your numbers.');
      after = { rank: statusRank(cursor.status), id };
    }
    const rows = await this.numbers.page(account, limit + 1, after);
    return { data: rows.slice(0, limit).map(toNumberView), has_more: rows.length > limit };
  }

  /**
   * `DELETE /numbers/{id}`: final; billing stops, nothing is refunded, the provider gets the number back. Releasing
   * a number already released answers `{ released: true }` again (the request is safe to retry).
   */
  async release(id: string, ctx: { accountId: string | undefined; requestId: string | undefined }): Promise<NumberReleased> {
    const accountId = requireAccount(ctx);
    const numberId = parseNumberId(id);
    const cause: EventCause = { correlationId: ctx.requestId ?? randomUUID() };
    const outcome = await this.prisma.$transaction(async (tx) => {
      const number = await this.numbers.lockOwned(tx, accountId, numberId);
      if (!number) return null;
      if (number.status === 'released') return { number, now: false };
      const account = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { allowance_exhausted_period: true } });
      return { number: await this.lifecycle.release(tx, number, account, new Date(), cause), now: true };
    });
    if (!outcome) throw new ServiceError('not_found', `No number ${formatNumberId(numberId)} on this account.`);
    if (outcome.now) {
      this.outbox.kick();
      await this.releaseAtProvider(outcome.number);
    }
    return { released: true };
  }

  /** Gives a released number back to the provider; a failure is retried by the billing cycle's sweep. */
  async releaseAtProvider(number: Pick<NumberRecord, 'id' | 'phone_number'>): Promise<boolean> {
    try {
      await this.provider.releaseNumber(number.phone_number);
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
   * Internal (webhook-dispatcher): where a number's events go and the key that signs them, sealed for the asker's
   * key: the secret never crosses the bus in plaintext.
   */
  async webhookTarget(numberId: string, recipientKey: string): Promise<WebhookTarget> {
    const number = await this.numbers.findWebhookTarget(parseNumberId(numberId));
    if (!number) throw new ServiceError('not_found', `No number ${numberId}.`);
    const id = formatNumberId(number.id);
    const stored = { keyId: number.webhook_secret_key_id, ciphertext: number.webhook_secret_ciphertext };
    const memoKey = `${recipientKey}\n${id}\n${stored.keyId}\n${stored.ciphertext}`;
    let sealed: string;
    try {
      sealed = this.sealedSecrets.get(memoKey, () => sealFor(recipientKey, this.openedSecrets.open(stored, secretContext(number.id)), webhookSecretSealContext(id)));
    } catch (error) {
      if (error instanceof SealedSecretError) throw new ServiceError('invalid_request', 'recipient_key is not a usable X25519 public key.');
      throw error;
    }
    return { number_id: id, webhook_url: number.webhook_url, webhook_secret_sealed: sealed };
  }

  async resealStaleSecrets(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.numbers.findSealedWithOtherKey(this.secrets.currentKeyId, 100);
      let progressed = 0;
      for (const number of batch) {
        const old = { keyId: number.webhook_secret_key_id, ciphertext: number.webhook_secret_ciphertext };
        const secret = this.secrets.open(old, secretContext(number.id));
        if (await this.numbers.setSealedSecret(number.id, old.keyId, this.secrets.seal(secret, secretContext(number.id)))) progressed += 1;
      }
      total += progressed;
      if (batch.length < 100 || progressed === 0) break;
    }
    if (total > 0) this.logger.info({ count: total }, 'webhook secrets sealed again with the current key');
    return total;
  }
}

function parseCursor(value: string): bigint {
  try {
    return parseNumberId(value);
  } catch {
    throw new ServiceError('invalid_request', 'starting_after must be a number id (num_<n>).');
  }
}
