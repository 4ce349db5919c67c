import { Inject, Injectable } from '@nestjs/common';
import { CALL_COMPLETED_EVENT, WebhookTargetRpc, webhookSecretSealContext } from '@switchboard/contracts';
import { BoundedMemo, RpcClient, type SealingKeyPair } from '@switchboard/messaging';
import { SEALING_KEY_PAIR } from '../config/tokens';
import type { WebhookTarget, WebhookTargets } from './webhook-targets.port';

/**
 * Asks numbers-billing over NATS (`WebhookTargetRpc`) with this dispatcher's public key, and opens the secret it
 * answers sealed for that key. numbers-billing answers the same sealed value until the secret changes, so an
 * opened one is remembered by its sealed form: a new secret (a rotation) is a new entry, never the old answer.
 */
@Injectable()
export class NatsWebhookTargets implements WebhookTargets {
  private readonly opened = new BoundedMemo();

  constructor(
    private readonly rpc: RpcClient,
    @Inject(SEALING_KEY_PAIR) private readonly key: SealingKeyPair,
  ) {}

  async find(numberId: string, correlationId: string): Promise<WebhookTarget> {
    const target = await this.rpc.request(
      WebhookTargetRpc,
      { number_id: numberId, recipient_key: this.key.publicKey },
      { requestId: correlationId },
    );
    const context = webhookSecretSealContext(target.number_id);
    const open = (sealed: string) => this.opened.get(`${context}\n${sealed}`, () => this.key.open(sealed, context));
    const previous = target.previous_webhook_secret_sealed;
    return {
      number_id: target.number_id,
      webhook_url: target.webhook_url,
      webhook_secret: open(target.webhook_secret_sealed),
      previous_webhook_secret: previous ? open(previous) : null,
      previous_webhook_secret_expires_at: previous ? (target.previous_webhook_secret_expires_at ?? null) : null,
      // A numbers-billing older than opt-in call events does not say; none of its numbers can have opted into them.
      webhook_events: target.webhook_events ?? [CALL_COMPLETED_EVENT],
    };
  }
}
