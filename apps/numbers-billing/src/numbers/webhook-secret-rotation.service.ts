import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  DEFAULT_ROTATION_OVERLAP_HOURS,
  NumberUpdatedEvent,
  IDEMPOTENCY_KEY_RETENTION_MS,
  ServiceError,
  type RotateWebhookSecretCommand,
  type WebhookSecretRotated,
} from '@switchboard/contracts';
import { requireAccount, type RpcContext } from '@switchboard/messaging';
import { SecretBox, newWebhookSecret } from '../crypto/secret-box';
import { LedgerRepository } from '../ledger/ledger.repository';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { NumberLifecycle } from './number-lifecycle';
import { formatNumberId, parseNumberId } from './number-id';
import { secretContext } from './number-record';
import { NumbersRepository, type PreviousSecretColumns } from './numbers.repository';

/** The context the previous secret is sealed under: it opens only as this number's previous secret. */
export function previousSecretContext(id: bigint): string {
  return `${secretContext(id)}:previous`;
}

/**
 * `POST /v1/numbers/{id}/webhook-secret/rotate` (docs/adr/0128-webhook-signatures-secrets-and-listen.md): a new secret, returned
 * once; the old one is kept, sealed, until the overlap ends, and webhook-dispatcher signs every delivery with both
 * meanwhile. A retry with the same `Idempotency-Key` within 24 hours answers the secret it made instead of rotating
 * again (the gateway stores the answer without the secret and asks again on a replay).
 */
@Injectable()
export class WebhookSecretRotation {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly numbers: NumbersRepository,
    private readonly secrets: SecretBox,
    private readonly lifecycle: NumberLifecycle,
    private readonly ledger: LedgerRepository,
    private readonly outbox: NumbersOutbox,
  ) {}

  async rotate(command: RotateWebhookSecretCommand, ctx: RpcContext, now = new Date()): Promise<WebhookSecretRotated> {
    const accountId = requireAccount(ctx);
    const id = parseNumberId(command.id);
    const overlapHours = command.overlap_hours ?? DEFAULT_ROTATION_OVERLAP_HOURS;
    const rotated = await this.transactions.run(async (tx) => {
      const number = await this.numbers.lockOwned(tx, accountId, id);
      if (!number) throw new ServiceError('not_found', `No number ${formatNumberId(id)} on this account.`);
      if (number.status === 'released')
        throw new ServiceError('number_released', `${formatNumberId(id)} is released; its secret cannot be rotated.`);
      const last = await this.numbers.lastSecretRotation(tx, id);
      const current = { keyId: number.webhook_secret_key_id, ciphertext: number.webhook_secret_ciphertext };
      if (
        command.idempotency_key !== undefined &&
        last.webhook_secret_rotation_key === command.idempotency_key &&
        last.webhook_secret_rotated_at !== null &&
        now.getTime() - last.webhook_secret_rotated_at.getTime() < IDEMPOTENCY_KEY_RETENTION_MS
      ) {
        return {
          number_id: formatNumberId(id),
          webhook_secret: this.secrets.open(current, secretContext(id)),
          previous_secret_expires_at: last.previous_webhook_secret_expires_at?.toISOString() ?? null,
        };
      }
      const fresh = newWebhookSecret();
      const sealedNew = this.secrets.seal(fresh, secretContext(id));
      const expiresAt = overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3600_000) : null;
      const sealedOld = expiresAt
        ? this.secrets.seal(this.secrets.open(current, secretContext(id)), previousSecretContext(id))
        : null;
      const updated = await this.numbers.saveSecretRotation(tx, id, {
        webhook_secret_key_id: sealedNew.keyId,
        webhook_secret_ciphertext: sealedNew.ciphertext,
        previous_webhook_secret_key_id: sealedOld?.keyId ?? null,
        previous_webhook_secret_ciphertext: sealedOld?.ciphertext ?? null,
        previous_webhook_secret_expires_at: expiresAt,
        webhook_secret_rotation_key: command.idempotency_key ?? null,
        webhook_secret_rotated_at: now,
      });
      // A new version, told as `number.updated`: every dispatcher forgets the target it kept (ADR 0075).
      const account = await this.ledger.answeringState(tx, accountId);
      await this.lifecycle.publish(tx, NumberUpdatedEvent, updated, account, {
        correlationId: ctx.requestId ?? randomUUID(),
      });
      return {
        number_id: formatNumberId(id),
        webhook_secret: fresh,
        previous_secret_expires_at: expiresAt?.toISOString() ?? null,
      };
    });
    // Publishes the rotation's number.updated now (after a replay there is nothing new: the relay finds nothing).
    this.outbox.kick();
    return rotated;
  }

  /**
   * The previous secret, while its overlap lasts at `now`; null otherwise (or when its key is gone). `row` holds the
   * number's previous-secret columns, read with its webhook target.
   */
  previousSecret(id: bigint, row: PreviousSecretColumns, now = new Date()): string | null {
    if (
      !row.previous_webhook_secret_key_id ||
      !row.previous_webhook_secret_ciphertext ||
      !row.previous_webhook_secret_expires_at
    )
      return null;
    if (row.previous_webhook_secret_expires_at.getTime() <= now.getTime()) return null;
    try {
      return this.secrets.open(
        { keyId: row.previous_webhook_secret_key_id, ciphertext: row.previous_webhook_secret_ciphertext },
        previousSecretContext(id),
      );
    } catch {
      // Sealed with an encryption key since retired: the overlap ends early rather than failing deliveries.
      return null;
    }
  }
}
