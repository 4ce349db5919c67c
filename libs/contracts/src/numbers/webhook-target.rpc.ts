import { IsString, Matches } from 'class-validator';
import { defineRpc } from '../messaging/rpc';
import { NUMBER_ID_PATTERN } from './number.dto';

export class GetWebhookTargetQuery {
  @IsString() @Matches(NUMBER_ID_PATTERN) number_id: string;
}

/** Internal only (webhook-dispatcher): where to send a number's events and the key to sign them with. */
export interface WebhookTarget {
  number_id: string;
  /** Null when the number has no webhook (nothing is sent). */
  webhook_url: string | null;
  /** The decrypted `webhook_secret`; never logged, never stored outside numbers-billing. */
  webhook_secret: string;
}

export const WebhookTargetRpc = defineRpc<GetWebhookTargetQuery, WebhookTarget>('numbers.v1.webhook-target.get', GetWebhookTargetQuery);
