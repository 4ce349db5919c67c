import { IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Matches, Max, Min } from 'class-validator';
import { ACCOUNT_ID_PATTERN, MAX_INT4 } from '../common/validation';
import { NUMBER_ID_PATTERN } from '../numbers/number.dto';

/**
 * Where webhook-dispatcher publishes a copy of each signed delivery for the listeners of `GET
 * /v1/numbers/{id}/webhook/listen` (docs/adr/0128-webhook-signatures-secrets-and-listen.md): plain core NATS, no stream, nothing kept. Below
 * its own root, not `webhooks.v1.>` (the dispatcher's request subjects), so no service answers it as a request.
 */
export const WEBHOOK_COPIES_SUBJECT = 'webhook-copies.v1';

/** The subject of one number's copies: the account (its test twin for test mode, ADR 0087) and the number. */
export function webhookCopySubject(accountId: string, numberId: string): string {
  if (!ACCOUNT_ID_PATTERN.test(accountId) || !NUMBER_ID_PATTERN.test(numberId))
    throw new Error(`no webhook copy subject for ${accountId} and ${numberId}`);
  return `${WEBHOOK_COPIES_SUBJECT}.${accountId}.${numberId}`;
}

/**
 * Why the copy was made: an attempt to the number's `webhook_url` (`attempt`), or an event the dispatcher signed
 * but sent nowhere (`not_sent`: no `webhook_url`, or the URL refused by the egress rule or not resolvable).
 */
export const WEBHOOK_COPY_KINDS = ['attempt', 'not_sent'] as const;
export type WebhookCopyKind = (typeof WEBHOOK_COPY_KINDS)[number];

/** One signed delivery as it was (or would have been) sent: the exact body and the headers it was signed with. */
export class WebhookCopy {
  @IsUUID() event_id: string;
  @IsString() @Matches(/^[a-z_]+(\.[a-z_]+)+$/) type: string;
  @IsString() @Matches(NUMBER_ID_PATTERN) number_id: string;
  @IsIn(WEBHOOK_COPY_KINDS) kind: WebhookCopyKind;
  /** The attempt's number in the event's log (1 for the first); null for a copy of an event not sent. */
  @IsOptional() @IsInt() @Min(1) @Max(MAX_INT4) attempt: number | null;
  /** The request's headers as signed: Content-Type, User-Agent, X-Switchboard-*, webhook-*. */
  @IsObject() headers: Record<string, string>;
  /** The raw body, the UTF-8 text whose bytes were signed. */
  @IsString() body: string;
}
