import { ApiProperty, ApiPropertyOptional } from '../common/api-property';
import { IsOmittable } from '../common/validation';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  IsObject,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { CursorPageQuery } from '../common/pagination';
import { AgentSettingsBody } from './agent.dto';
import { IsE164, IsUsAreaCode, IsUsE164 } from '../common/phone';

export const NUMBER_STATUSES = ['active', 'past_due', 'released'] as const;
export type NumberStatus = (typeof NUMBER_STATUSES)[number];
export const NUMBER_ID_PATTERN = /^num_[1-9]\d{0,17}$/;
export const MAX_URL_LENGTH = 2048;

/**
 * The rules a `webhook_url` meets wherever it is set (creation and PATCH): a string, at most MAX_URL_LENGTH long,
 * an absolute https:// URL. Applied as the decorator stack `@IsString() @MaxLength() @IsUrl()` would be (bottom
 * first), so the messages keep their declared order (docs/adr/0057).
 */
function IsWebhookUrl(): PropertyDecorator {
  const rules = [
    IsUrl(
      { protocols: ['https'], require_protocol: true, require_tld: false, allow_underscores: true },
      { message: 'webhook_url must be an absolute https:// URL' },
    ),
    MaxLength(MAX_URL_LENGTH),
    IsString(),
  ];
  return (target, property) => rules.forEach((rule) => rule(target, property));
}

/** The most `max_call_minutes` a number can set: four hours (docs/live-calls.md). */
export const MAX_CALL_MINUTES_LIMIT = 240;

/** How long a call may go without its end report when its number does not say (`max_call_minutes`). */
export const DEFAULT_MAX_CALL_MINUTES = 60;

const MAX_CALL_MINUTES_DESCRIPTION =
  "Minutes a call may go without the provider's end report before it is closed as `incomplete`; a late end report " +
  `then corrects it (the \`call.updated\` webhook). 1 to ${MAX_CALL_MINUTES_LIMIT}; default ${DEFAULT_MAX_CALL_MINUTES}.`;

/** The `max_call_minutes` rules: an integer from 1 to MAX_CALL_MINUTES_LIMIT. */
function IsMaxCallMinutes(): PropertyDecorator {
  const rules = [Max(MAX_CALL_MINUTES_LIMIT), Min(1), IsInt()];
  return (target, property) => rules.forEach((rule) => rule(target, property));
}

/** Webhook event types a number can be subscribed to (`webhook_events`). `call.completed` is always sent. */
export const CALL_COMPLETED_EVENT = 'call.completed';
export const CALL_STARTED_EVENT = 'call.started';
export const CALL_UPDATED_EVENT = 'call.updated';
export const BILLING_BALANCE_LOW_EVENT = 'billing.balance_low';
export const BILLING_TOP_UP_FAILED_EVENT = 'billing.top_up_failed';
/**
 * The events a number receives only when it opted in: the live call events (`call.started`, `call.updated`) and the
 * account-level billing events (docs/adr/0131-auto-top-up-and-stripe.md).
 */
export const OPT_IN_WEBHOOK_EVENTS = [
  CALL_STARTED_EVENT,
  CALL_UPDATED_EVENT,
  BILLING_BALANCE_LOW_EVENT,
  BILLING_TOP_UP_FAILED_EVENT,
] as const;
export type OptInWebhookEvent = (typeof OPT_IN_WEBHOOK_EVENTS)[number];
export const SUBSCRIBABLE_WEBHOOK_EVENTS = [CALL_COMPLETED_EVENT, ...OPT_IN_WEBHOOK_EVENTS] as const;
export type SubscribableWebhookEvent = (typeof SUBSCRIBABLE_WEBHOOK_EVENTS)[number];

const WEBHOOK_EVENTS_DESCRIPTION =
  'Event types sent to webhook_url. `call.completed` (and `number.past_due`, `number.released`) are always sent; ' +
  'the others only to numbers that list them: `call.started` (a call began), `call.updated` (a call closed as ' +
  '`incomplete` got its late end report), and the account-level `billing.balance_low` and `billing.top_up_failed` ' +
  '(see docs/webhooks.md). Default and when omitted: `["call.completed"]`. On PATCH the list replaces the previous one.';

/** The `webhook_events` rules: a list (at most 10) of known event types. */
function IsWebhookEvents(): PropertyDecorator {
  const message = `webhook_events must be an array of event types among ${SUBSCRIBABLE_WEBHOOK_EVENTS.join(', ')}`;
  const rules = [
    IsIn(SUBSCRIBABLE_WEBHOOK_EVENTS as readonly string[], { each: true, message }),
    ArrayMaxSize(10, { message: 'webhook_events must list at most 10 event types' }),
    IsArray({ message }),
  ];
  return (target, property) => rules.forEach((rule) => rule(target, property));
}

/** `POST /numbers` body (spec part 2, NumberCreate). */
export class NumberCreate {
  @ApiProperty({ example: '+14155550123', description: 'E.164 US number the agent answers for.' })
  @IsUsE164()
  business_phone: string;

  @ApiPropertyOptional({ example: '415', description: 'Preferred area code. Default: the area of business_phone.' })
  @IsOmittable()
  @IsUsAreaCode()
  area_code?: string;

  @ApiPropertyOptional({
    example: 'https://example.com/hooks/switchboard',
    format: 'uri',
    description: 'Public HTTPS endpoint for call events. Private, loopback and link-local hosts are refused.',
  })
  @IsOmittable()
  @IsWebhookUrl()
  webhook_url?: string;

  @ApiPropertyOptional({
    type: [String],
    enum: SUBSCRIBABLE_WEBHOOK_EVENTS,
    example: [CALL_COMPLETED_EVENT],
    description: WEBHOOK_EVENTS_DESCRIPTION,
  })
  // Absent is the default; null is refused (400), not taken for absent.
  @ValidateIf((_, value) => value !== undefined)
  @IsWebhookEvents()
  webhook_events?: string[];

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_CALL_MINUTES_LIMIT,
    default: DEFAULT_MAX_CALL_MINUTES,
    description: MAX_CALL_MINUTES_DESCRIPTION,
  })
  @IsOmittable()
  @IsMaxCallMinutes()
  max_call_minutes?: number;

  @ApiPropertyOptional({
    type: AgentSettingsBody,
    description:
      'Extension (not in the spec): the greeting and instructions of the AI agent that answers the number. Read and ' +
      'change them later at /v1/numbers/{id}/agent.',
  })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentSettingsBody)
  agent?: AgentSettingsBody;
}

export class NumberView {
  @ApiProperty({ example: 'num_1' }) id: string;
  @ApiProperty({ example: '+14155550100' }) phone_number: string;
  @ApiProperty({ example: '+14155550123' }) business_phone: string;
  @ApiProperty({ enum: NUMBER_STATUSES }) status: NumberStatus;
  @ApiProperty({ type: String, format: 'uri', nullable: true, description: 'Null when no webhook is set.' })
  webhook_url: string | null;
  @ApiProperty({
    type: [String],
    enum: SUBSCRIBABLE_WEBHOOK_EVENTS,
    example: [CALL_COMPLETED_EVENT],
    description: WEBHOOK_EVENTS_DESCRIPTION,
  })
  webhook_events: SubscribableWebhookEvent[];
  @ApiProperty({
    minimum: 1,
    maximum: MAX_CALL_MINUTES_LIMIT,
    example: DEFAULT_MAX_CALL_MINUTES,
    description: MAX_CALL_MINUTES_DESCRIPTION,
  })
  max_call_minutes: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class NumberCreated extends NumberView {
  @ApiProperty({ description: 'HMAC key for webhook signatures. Returned only in this response.' })
  webhook_secret: string;
}

export class NumberList {
  @ApiProperty({ type: [NumberView] }) data: NumberView[];
  @ApiProperty({ description: 'True when more numbers follow; pass the last id as starting_after.' }) has_more: boolean;
}

export class ListNumbersQuery extends CursorPageQuery {}

/** The `Idempotency-Key` header: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * How long an `Idempotency-Key` answers its first result (24 hours, as Stripe's do): the gateway keeps answers that
 * long, and numbers-billing returns a number's `webhook_secret` to a retry only within it
 * (docs/adr/0056-idempotency-key-on-every-public-write.md).
 */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 3600 * 1000;

/**
 * What the gateway sends numbers-billing: the body, plus the caller's `Idempotency-Key` when one was sent. A
 * retry with the same key and body answers the first result without buying or charging again.
 */
export class ProvisionNumberCommand extends NumberCreate {
  @IsOptional()
  @IsString()
  @Matches(IDEMPOTENCY_KEY_PATTERN, { message: 'idempotency_key must be 1 to 255 visible ASCII characters' })
  idempotency_key?: string;
}

/** `DELETE /numbers/{id}`: `num_<n>` or `<n>` (spec part 4: both forms appear). */
export class ReleaseNumberCommand {
  @IsString()
  @Matches(/^(num_)?[1-9]\d{0,17}$/, { message: 'id must be a number id (num_<n> or <n>)' })
  id: string;
}

export class NumberReleased {
  @ApiProperty() released: boolean;
}

/** `num_<n>` or `<n>`: the path parameter of the routes on one number (spec part 4: both forms appear). */
const NUMBER_ID_PARAM_PATTERN = /^(num_)?[1-9]\d{0,17}$/;

/** `GET /numbers/{id}` and `PATCH /numbers/{id}` path parameter. */
export class NumberIdParam {
  @IsString()
  @Matches(NUMBER_ID_PARAM_PATTERN, { message: 'id must be a number id (num_<n> or <n>)' })
  id: string;
}

export class GetNumberQuery extends NumberIdParam {}

/**
 * `PATCH /numbers/{id}` body: at least one field (an empty body is 400). `webhook_url` follows the rules of
 * creation and `null` removes the webhook; `business_phone`, `webhook_events` and `max_call_minutes` are checked as
 * at creation.
 */
export class NumberUpdate {
  @ApiPropertyOptional({
    type: String,
    example: 'https://example.com/hooks/switchboard',
    format: 'uri',
    nullable: true,
    description:
      'Public HTTPS endpoint for call events, checked as at creation and stored normalised; null removes the webhook.',
  })
  @IsOptional()
  @IsWebhookUrl()
  webhook_url?: string | null;

  @ApiPropertyOptional({ example: '+14155550123', description: 'E.164 US number the agent answers for.' })
  @ValidateIf((_, value) => value !== undefined)
  @IsUsE164()
  business_phone?: string;

  @ApiPropertyOptional({
    type: [String],
    enum: SUBSCRIBABLE_WEBHOOK_EVENTS,
    example: [CALL_COMPLETED_EVENT, BILLING_TOP_UP_FAILED_EVENT],
    description: WEBHOOK_EVENTS_DESCRIPTION,
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsWebhookEvents()
  webhook_events?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_CALL_MINUTES_LIMIT, description: MAX_CALL_MINUTES_DESCRIPTION })
  @IsOmittable()
  @IsMaxCallMinutes()
  max_call_minutes?: number;
}

export class UpdateNumberCommand extends NumberUpdate {
  @IsString()
  @Matches(NUMBER_ID_PARAM_PATTERN, { message: 'id must be a number id (num_<n> or <n>)' })
  id: string;
}

/**
 * Internal (gateway's simulated-provider route): whether a phone number was one of ours, in service, when a call
 * started. Answered by numbers-billing, which owns numbers.
 */
export class ServiceNumberQuery {
  @IsE164()
  phone_number: string;

  @IsISO8601({ strict: true }, { message: 'at must be an ISO 8601 date-time' })
  at: string;
}

export interface ServiceNumberStanding {
  phone_number: string;
  /** True when a number with this phone number was not yet released at `at` (active, past_due, or released later). */
  in_service: boolean;
  /** Why not, when not: no number ever had it, or every number that had it was released before `at`. */
  reason: 'unknown' | 'released' | null;
  /**
   * When the number that holds it now (not released; at most one) was provisioned: its current tenure began then
   * (docs/adr/0121-calls-and-recordings.md). Null when no number holds it now.
   */
  held_since: string | null;
}

/** The overlap of a webhook secret rotation: 24 hours unless told; 0 ends the old secret at once; a week at most. */
export const DEFAULT_ROTATION_OVERLAP_HOURS = 24;
export const MAX_ROTATION_OVERLAP_HOURS = 168;

/** `POST /numbers/{id}/webhook-secret/rotate` body. */
export class WebhookSecretRotate {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_ROTATION_OVERLAP_HOURS,
    default: DEFAULT_ROTATION_OVERLAP_HOURS,
    description:
      'Hours during which deliveries are signed with the new and the old secret (0: the old one stops at once).',
  })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(MAX_ROTATION_OVERLAP_HOURS)
  overlap_hours?: number;
}

export class RotateWebhookSecretCommand extends WebhookSecretRotate {
  @IsString()
  @Matches(NUMBER_ID_PARAM_PATTERN, { message: 'id must be a number id (num_<n> or <n>)' })
  id: string;

  @IsOptional()
  @IsString()
  @Matches(IDEMPOTENCY_KEY_PATTERN, { message: 'idempotency_key must be 1 to 255 visible ASCII characters' })
  idempotency_key?: string;
}

export class WebhookSecretRotated {
  @ApiProperty({ example: 'num_1' }) number_id: string;
  @ApiProperty({
    description:
      'The new HMAC key for webhook signatures. Returned only in this response (and to a retry with the same Idempotency-Key).',
  })
  webhook_secret: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'Until then deliveries carry a signature for the old secret too (`v1=<new> v1=<old>`); null when the overlap is 0.',
  })
  previous_secret_expires_at: string | null;
}
