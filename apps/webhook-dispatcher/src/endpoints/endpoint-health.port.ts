import type { EndpointDisabledReason } from '@switchboard/contracts';
import type { Selectable } from 'kysely';
import type { WebhookEndpoint } from '../generated/kysely/database';

/** An endpoint's run of failures, as counted after an attempt. */
export type EndpointHealthRow = Pick<
  Selectable<WebhookEndpoint>,
  'consecutive_failures' | 'failing_since' | 'disabled_at'
>;

/** One counted attempt's outcome. */
export interface CountedAttempt {
  numberId: string;
  accountId: string;
  succeeded: boolean;
  statusCode: number | null;
  at: Date;
}

/**
 * What the delivery use case asks of endpoint health (EndpointHealth in the app, a fake in unit tests). The count
 * itself and the disabled check are written and read by the delivery's own statements (DeliveryStore), so an
 * attempt costs no extra round trip; what to do about the count is decided here.
 */
export interface EndpointHealthPort {
  /** Judges an attempt already counted (`after` is the endpoint after the count); the reason when it disabled it. */
  judge(attempt: CountedAttempt, after: EndpointHealthRow): Promise<EndpointDisabledReason | undefined>;
}

export const ENDPOINT_HEALTH = Symbol('ENDPOINT_HEALTH');
