import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsString, IsUUID, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';

/** The number id every webhook request names (`num_<n>`, as the gateway writes it after checking the account owns it). */
const NUMBER_ID = /^num_[1-9]\d{0,17}$/;

/** The types of event a number's webhook receives (docs/webhooks.md lists each body). */
export const WEBHOOK_EVENT_TYPES = [
  'call.completed',
  'call.started',
  'call.updated',
  'number.past_due',
  'number.released',
  'webhook.test',
  'billing.balance_low',
  'billing.top_up_failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Where an event's delivery stands: `pending` until its verdict, then one of the others. */
export const WEBHOOK_EVENT_STATUSES = ['pending', 'delivered', 'failed', 'refused', 'skipped', 'paused'] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

/** How far back `recover` reaches: 14 days, as Svix's recover does. */
export const MAX_RECOVERY_DAYS = 14;
export const DEFAULT_WEBHOOK_EVENT_PAGE = 20;

/** `GET /v1/numbers/{id}/webhook-events` query. */
export class ListWebhookEventsPage {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: DEFAULT_WEBHOOK_EVENT_PAGE, description: 'Page size.' })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `id` of the last event of the previous page.' })
  @IsOmittable()
  @IsUUID('all', { message: 'starting_after must be an event id' })
  starting_after?: string;
}

/** What the gateway sends webhook-dispatcher: the page, for a number the caller owns. */
export class ListWebhookEventsQuery extends ListWebhookEventsPage {
  @IsString() @Matches(NUMBER_ID, { message: 'number_id must be a number id (num_<n>)' }) number_id: string;
}

export class WebhookEventAttemptView {
  @ApiProperty({ minimum: 1, description: '1 for the first attempt; a redelivery continues the count.' })
  attempt: number;
  @ApiProperty({ format: 'uri', description: 'Where it was sent (the query string is kept).' }) url: string;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: "The receiver's HTTP status; null when it did not answer.",
  })
  status_code: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Why the attempt failed; null when it succeeded; `in progress` while on the wire.',
  })
  error: string | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'Milliseconds from sending to the answer (or the failure); null while on the wire.',
  })
  latency_ms: number | null;
  @ApiProperty({ format: 'date-time', description: 'When the attempt was sent.' }) attempted_at: string;
}

export class WebhookEventView {
  @ApiProperty({
    format: 'uuid',
    description: 'The event id: `X-Switchboard-Event-Id` and `webhook-id` on every attempt.',
  })
  id: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) type: WebhookEventType;
  @ApiProperty({ example: 'num_1' }) number_id: string;
  @ApiProperty({
    enum: WEBHOOK_EVENT_STATUSES,
    description:
      '`pending` while attempts remain; `failed` after the last one; `paused` while the endpoint is disabled.',
  })
  status: WebhookEventStatus;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due; null when none is.',
  })
  next_attempt_at: string | null;
  @ApiProperty({ description: 'Whether the event can be sent again (its body was kept).' }) redeliverable: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: [WebhookEventAttemptView], description: 'Oldest first.' }) attempts: WebhookEventAttemptView[];
}

export class WebhookEventList {
  @ApiProperty({ type: [WebhookEventView], description: 'Newest first.' }) data: WebhookEventView[];
  @ApiProperty({ description: 'True when more events follow; pass the last id as starting_after.' }) has_more: boolean;
}

/** `POST /v1/numbers/{id}/webhook-events/{event_id}/redeliver` as the gateway forwards it. */
export class RedeliverWebhookEventCommand {
  @IsString() @Matches(NUMBER_ID, { message: 'number_id must be a number id (num_<n>)' }) number_id: string;
  @IsUUID('all', { message: 'event_id must be an event id' }) event_id: string;
}

/** `POST /v1/numbers/{id}/webhook-events/recover` body. */
export class RecoverWebhookEvents {
  @ApiProperty({
    format: 'date-time',
    description: `Send again every failed event created since then; at most ${MAX_RECOVERY_DAYS} days ago.`,
  })
  @IsString()
  @MaxLength(40)
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since: string;
}

export class RecoverWebhookEventsCommand extends RecoverWebhookEvents {
  @IsString() @Matches(NUMBER_ID, { message: 'number_id must be a number id (num_<n>)' }) number_id: string;
}

export class WebhookEventsRecovered {
  @ApiProperty({ description: 'How many failed events were queued to be sent again.' }) queued: number;
}

/** `POST /v1/numbers/{id}/webhook-test` as the gateway forwards it. */
export class SendTestWebhookCommand {
  @IsString() @Matches(NUMBER_ID, { message: 'number_id must be a number id (num_<n>)' }) number_id: string;
}

export class WebhookTestResult {
  @ApiProperty({ format: 'uuid', description: 'The test event id (listed in the delivery log).' }) event_id: string;
  @ApiProperty({ description: 'True when the receiver answered 2xx.' }) delivered: boolean;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: "The receiver's HTTP status; null when it did not answer.",
  })
  status_code: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why it failed; null when delivered.' }) error:
    string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The first 1 KiB of what the receiver answered, as text; null when it did not answer.',
  })
  response_body: string | null;
  @ApiProperty({ description: 'Milliseconds from sending to the answer.' }) latency_ms: number;
}

/** `/v1/numbers/{id}/webhook-events/{event_id}/...` path parameters. */
export class WebhookEventParams {
  @IsString()
  @Matches(/^(num_)?[1-9]\d{0,17}$/, { message: 'id must be a number id (num_<n> or <n>)' })
  id: string;

  @IsUUID('all', { message: 'event_id must be an event id' })
  event_id: string;
}

/** The diagnoses of the verification self-test (`explainVerification` in libs/signing). */
export const VERIFICATION_DIAGNOSES = [
  'valid',
  'missing_timestamp',
  'invalid_timestamp',
  'timestamp_in_milliseconds',
  'missing_signature',
  'invalid_signature',
  'standard_signature_in_switchboard_header',
  'timestamp_out_of_tolerance',
  'body_reserialized',
  'body_whitespace_changed',
  'secret_whitespace',
  'secret_without_prefix',
  'signature_mismatch',
] as const;

function IsHeaderMap(): PropertyDecorator {
  return ValidateBy({
    name: 'isHeaderMap',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.keys(value).length >= 1 &&
        Object.keys(value).length <= 100 &&
        Object.values(value).every((header) => typeof header === 'string' && header.length <= 8192),
      defaultMessage: () => 'headers must be an object of 1 to 100 header names to string values',
    },
  });
}

/** `POST /v1/webhooks/verify` body: a delivery as your receiver got it, and the secret you verify it with. */
export class WebhookVerificationRequest {
  @ApiProperty({ description: 'The webhook secret you verify with (never stored or logged).', example: 'whsec_...' })
  @IsString()
  @MaxLength(200)
  secret: string;

  @ApiProperty({
    description: 'The request body exactly as your receiver got it (the raw text, before any JSON parsing).',
  })
  @IsString()
  @MaxLength(32_768)
  body: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'The request headers as received (names in any case): X-Switchboard-Timestamp, X-Switchboard-Signature, and webhook-* if you use them.',
    example: { 'X-Switchboard-Timestamp': '1763658224', 'X-Switchboard-Signature': 'v1=fac3...' },
  })
  @IsHeaderMap()
  headers: Record<string, string>;

  @ApiPropertyOptional({
    format: 'date-time',
    description: "Your receiver's clock when it got the request (default: now), to check the timestamp against.",
  })
  @IsOmittable()
  @IsISO8601({ strict: true }, { message: 'received_at must be an ISO 8601 date-time' })
  received_at?: string;
}

export class WebhookVerificationResult {
  @ApiProperty({ description: 'True when the delivery verifies.' }) valid: boolean;
  @ApiProperty({ enum: VERIFICATION_DIAGNOSES, description: 'What is wrong, or `valid`.' })
  diagnosis: (typeof VERIFICATION_DIAGNOSES)[number];
  @ApiProperty({ description: 'What is wrong and what to do, in words.' }) explanation: string;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'received_at minus the timestamp, in seconds; null when the timestamp is unreadable.',
  })
  clock_skew_seconds: number | null;
  @ApiProperty({
    nullable: true,
    type: Boolean,
    description: 'Whether the Standard Webhooks headers verify (signature only); null when they were not given.',
  })
  standard_webhooks_valid: boolean | null;
}

/** `GET /v1/numbers/{id}/webhook-endpoint` and `POST .../enable` as the gateway forwards them. */
export class WebhookEndpointQuery {
  @IsString() @Matches(NUMBER_ID, { message: 'number_id must be a number id (num_<n>)' }) number_id: string;
}

export class WebhookEndpointView {
  @ApiProperty({ example: 'num_1' }) number_id: string;
  @ApiProperty({
    enum: ['enabled', 'disabled'],
    description: 'While disabled, events wait (`paused` in the log) until the endpoint is enabled again.',
  })
  status: 'enabled' | 'disabled';
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['gone', 'failing'],
    description: '`gone`: the receiver answered 410; `failing`: every attempt failed for the documented run.',
  })
  disabled_reason: 'gone' | 'failing' | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) disabled_at: string | null;
  @ApiProperty({ description: 'Failed attempts in a row (0 after a success).' }) consecutive_failures: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'The first failure of the current run; null when the last attempt succeeded.',
  })
  failing_since: string | null;
}

export class WebhookEndpointEnabled extends WebhookEndpointView {
  @ApiProperty({ description: 'Events that waited while the endpoint was disabled, now queued to be sent.' })
  resumed: number;
}
