import type { EndpointHealthRow } from '../endpoints/endpoint-health.port';

/** Where a delivery stands. `pending` until its verdict; `paused` waits for its endpoint to be enabled; the rest are final. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'refused' | 'skipped' | 'paused';

export interface DeliveryRecord {
  event_id: string;
  /** `call.completed`, `webhook.test`, ... */
  event_type: string;
  /** Empty for an event not about a call. */
  call_sid: string;
  number_id: string;
  account_id: string;
  status: DeliveryStatus;
  /** Attempts that reached a verdict; an attempt interrupted by a crash of the dispatcher is not counted. */
  attempts: number;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  /** The public body as signed and sent; null for deliveries made before bodies were kept. */
  body: string | null;
  /** `attempts` when the current round (the first delivery, or a redelivery) started. */
  attempt_base: number;
}

export type NewDelivery = Pick<
  DeliveryRecord,
  'event_id' | 'event_type' | 'call_sid' | 'number_id' | 'account_id' | 'body'
>;

export interface AttemptRecord {
  event_id: string;
  /** The event's `type` (`call.completed`, `webhook.test`, ...), from its delivery. */
  event_type: string;
  call_sid: string;
  number_id: string;
  url: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  attempted_at: Date;
}

/** The claim on the next attempt of an event. */
export type AttemptClaim =
  | {
      kind: 'claimed';
      attemptId: bigint;
      attempt: number;
      attemptBase: number;
      leaseUntil: Date;
      interrupted: number;
      /** The receiver host's shared slot held for the attempt (ADR 0075), given back by `finishAttempt`. */
      slot: number;
    }
  /** Every replica's share of attempts to the receiver host is on the wire (ADR 0075): nothing was claimed. */
  | { kind: 'host_busy' }
  /** The event already has its verdict. */
  | { kind: 'closed'; status: DeliveryStatus }
  /** Another worker has an attempt on the wire until then. */
  | { kind: 'busy'; until: Date }
  /** The backoff after a failed attempt runs until then. */
  | { kind: 'waiting'; until: Date }
  /** The number's webhook endpoint is disabled (asked with `pauseIfDisabled`): nothing was claimed. */
  | { kind: 'paused' };

/** What `claimAttempt` is asked for. */
export interface ClaimRequest {
  delivery: NewDelivery;
  url: string;
  /** The receiver host the attempt goes to (`HostLimiter.keyOf`): one of its shared slots is taken with the claim. */
  host: string;
  now: Date;
  leaseUntil: Date;
  pauseIfDisabled?: boolean;
}

/** A claim made, as `finishAttempt` needs it. */
export interface ClaimHeld {
  eventId: string;
  numberId: string;
  attemptId: bigint;
  leaseUntil: Date;
  host: string;
  slot: number;
}

/** An attempt counted in its endpoint's health (docs/adr/0075), written with the attempt's outcome. */
export interface HealthCount {
  accountId: string;
  succeeded: boolean;
}

/** What `finishAttempt` did: whether the lease was still held, and the endpoint after the count when one was made. */
export interface FinishedAttempt {
  kept: boolean;
  endpoint?: EndpointHealthRow;
}

export interface AttemptOutcome {
  status_code: number | null;
  error: string | null;
  finished_at: Date;
  duration_ms: number;
}

export interface DeliveryUpdate {
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
}

export const IN_PROGRESS = 'in progress';
export const INTERRUPTED = 'interrupted: the dispatcher stopped before the receiver answered; not counted, sent again';

/**
 * Persistence of deliveries and their attempt log (Prisma in the app, in memory in unit tests). A delivery is
 * created by the first write about its event (a claim, or a close), so an event handed out again before anything
 * was decided leaves nothing behind.
 */
export interface DeliveryStore {
  /**
   * Gives the event's delivery its final status without an attempt (nothing to send), creating it if it is new.
   * A delivery that already has its verdict keeps it.
   */
  close(delivery: NewDelivery, status: Exclude<DeliveryStatus, 'pending'>): Promise<void>;
  /**
   * Gives a delivery already begun (still pending) its final status without another attempt. Writes nothing for an
   * event it has no delivery of; a delivery that already has its verdict keeps it.
   */
  closeBegun(eventId: string, status: Exclude<DeliveryStatus, 'pending'>): Promise<void>;
  /**
   * Atomically creates the delivery pending on first sight, takes the lease on it (pending, no lease held, its
   * backoff over) and logs the start of its next attempt (number `attempts + 1`, error "in progress"). An attempt
   * left unfinished by a crashed worker is closed as interrupted first. The claim holds one of the receiver host's
   * shared slots until the lease ends (`host_busy` when none is free: nothing claimed). With `pauseIfDisabled`,
   * nothing is claimed while the number's endpoint is disabled (`paused`), read in the same statement as the claim.
   */
  claimAttempt(request: ClaimRequest): Promise<AttemptClaim>;
  /**
   * Records the attempt's outcome and the delivery's new state, if this worker still holds the lease (`kept`
   * false: another worker took over), and gives the host slot back. With `count`, and only while the lease is held, the attempt is counted in its
   * endpoint's health in the same statement, and the endpoint after the count is returned.
   */
  finishAttempt(
    claim: ClaimHeld,
    outcome: AttemptOutcome,
    update: DeliveryUpdate,
    count?: HealthCount,
  ): Promise<FinishedAttempt>;
  /** Gives the claim's host slot back when the attempt ends without `finishAttempt` (an unexpected error). */
  giveBackSlot(claim: Pick<ClaimHeld, 'host' | 'slot' | 'leaseUntil'>): Promise<void>;
  /** A number's attempts, newest first. */
  listAttempts(numberId: string, limit: number): Promise<AttemptRecord[]>;
}
