import {
  WebhookTargetRpc,
  webhookSecretSealContext,
  type GetWebhookTargetQuery,
  type WebhookTarget,
} from '@switchboard/contracts';
import { SealingKeyPair } from '@switchboard/messaging';

/** A key pair standing in for webhook-dispatcher's. */
export const DISPATCHER_KEY = SealingKeyPair.generate();

type Ask = (rpc: typeof WebhookTargetRpc, query: GetWebhookTargetQuery) => Promise<WebhookTarget>;

/** Asks for a number's webhook target as webhook-dispatcher does, and opens the secret sealed for its key. */
export async function askWebhookTarget(
  ask: Ask,
  numberId: string,
): Promise<{
  number_id: string;
  webhook_url: string | null;
  webhook_secret: string;
  sealed: string;
  webhook_events: string[] | undefined;
}> {
  const target = await ask(WebhookTargetRpc, { number_id: numberId, recipient_key: DISPATCHER_KEY.publicKey });
  const webhook_secret = DISPATCHER_KEY.open(target.webhook_secret_sealed, webhookSecretSealContext(target.number_id));
  return {
    number_id: target.number_id,
    webhook_url: target.webhook_url,
    webhook_secret,
    sealed: target.webhook_secret_sealed,
    webhook_events: target.webhook_events,
  };
}
