import {
  INTERRUPTED,
  IN_PROGRESS,
  type AttemptClaim,
  type AttemptOutcome,
  type AttemptRecord,
  type ClaimHeld,
  type ClaimRequest,
  type DeliveryRecord,
  type DeliveryStatus,
  type DeliveryStore,
  type DeliveryUpdate,
  type FinishedAttempt,
  type HealthCount,
  type NewDelivery,
} from '../../src/deliveries/delivery-store.port';
import type { EndpointHealthRow } from '../../src/endpoints/endpoint-health.port';

interface StoredAttempt extends Omit<AttemptRecord, 'event_type'> {
  id: bigint;
  finished_at: Date | null;
}

/** The DeliveryStore contract in memory, for unit tests of the use case (DeliveriesRepository is its twin). */
export class InMemoryDeliveryStore implements DeliveryStore {
  readonly deliveries = new Map<string, DeliveryRecord>();
  readonly attempts: StoredAttempt[] = [];
  /** Numbers whose endpoint is disabled (set by the test). */
  readonly disabled = new Set<string>();
  /** Each number's endpoint health as counted. */
  readonly endpoints = new Map<string, EndpointHealthRow>();
  /** The host slots held (one replica: the use case's own HostLimiter stays in front). */
  readonly slotsHeld = new Map<string, Set<number>>();
  private nextId = 1n;

  /** `hostConcurrency`: the slots of each host shared by every replica (unlimited unless a test says). */
  constructor(private readonly hostConcurrency = Number.POSITIVE_INFINITY) {}

  async close(delivery: NewDelivery, status: Exclude<DeliveryStatus, 'pending'>): Promise<void> {
    const stored = this.deliveries.get(delivery.event_id);
    if (!stored)
      this.deliveries.set(delivery.event_id, {
        ...delivery,
        status,
        attempts: 0,
        next_attempt_at: null,
        lease_until: null,
        attempt_base: 0,
      });
    else if (stored.status === 'pending') Object.assign(stored, { status, lease_until: null });
  }

  async closeBegun(eventId: string, status: Exclude<DeliveryStatus, 'pending'>): Promise<void> {
    const stored = this.deliveries.get(eventId);
    if (stored?.status === 'pending') Object.assign(stored, { status, lease_until: null, next_attempt_at: null });
  }

  async claimAttempt({
    delivery: created,
    url,
    host,
    now,
    leaseUntil,
    pauseIfDisabled = false,
  }: ClaimRequest): Promise<AttemptClaim> {
    const held = this.slotsHeld.get(host) ?? new Set<number>();
    if (held.size >= this.hostConcurrency) return { kind: 'host_busy' };
    const stored = this.deliveries.get(created.event_id);
    if (stored && stored.status !== 'pending') return { kind: 'closed', status: stored.status };
    if (pauseIfDisabled && this.disabled.has(created.number_id)) return { kind: 'paused' };
    if (!stored) {
      this.deliveries.set(created.event_id, {
        ...created,
        status: 'pending',
        attempts: 0,
        next_attempt_at: null,
        lease_until: null,
        attempt_base: 0,
      });
    }
    const eventId = created.event_id;
    const delivery = this.deliveries.get(eventId)!;
    if (delivery.status !== 'pending') return { kind: 'closed', status: delivery.status };
    if (delivery.lease_until && delivery.lease_until > now) return { kind: 'busy', until: delivery.lease_until };
    if (delivery.next_attempt_at && delivery.next_attempt_at > now)
      return { kind: 'waiting', until: delivery.next_attempt_at };
    delivery.lease_until = leaseUntil;
    let interrupted = 0;
    for (const attempt of this.attempts) {
      if (attempt.event_id === eventId && attempt.finished_at === null) {
        Object.assign(attempt, { finished_at: now, error: INTERRUPTED });
        interrupted += 1;
      }
    }
    const id = this.nextId++;
    const attempt = delivery.attempts + 1;
    this.attempts.push({
      id,
      event_id: eventId,
      call_sid: delivery.call_sid,
      number_id: delivery.number_id,
      url,
      attempt,
      status_code: null,
      error: IN_PROGRESS,
      attempted_at: now,
      finished_at: null,
    });
    let slot = 0;
    while (held.has(slot)) slot += 1;
    held.add(slot);
    this.slotsHeld.set(host, held);
    return {
      kind: 'claimed',
      attemptId: id,
      attempt,
      attemptBase: delivery.attempt_base,
      leaseUntil,
      interrupted,
      slot,
    };
  }

  async finishAttempt(
    claim: ClaimHeld,
    outcome: AttemptOutcome,
    update: DeliveryUpdate,
    count?: HealthCount,
  ): Promise<FinishedAttempt> {
    await this.giveBackSlot(claim);
    const attempt = this.attempts.find((a) => a.id === claim.attemptId)!;
    Object.assign(attempt, {
      status_code: outcome.status_code,
      error: outcome.error,
      finished_at: outcome.finished_at,
    });
    const delivery = this.deliveries.get(claim.eventId)!;
    if (delivery.status !== 'pending' || delivery.lease_until?.getTime() !== claim.leaseUntil.getTime())
      return { kept: false };
    Object.assign(delivery, update, { lease_until: null });
    if (!count) return { kept: true };
    const before = this.endpoints.get(claim.numberId);
    const endpoint: EndpointHealthRow = count.succeeded
      ? { consecutive_failures: 0, failing_since: null, disabled_at: before?.disabled_at ?? null }
      : {
          consecutive_failures: (before?.consecutive_failures ?? 0) + 1,
          failing_since: before?.failing_since ?? outcome.finished_at,
          disabled_at: before?.disabled_at ?? null,
        };
    this.endpoints.set(claim.numberId, endpoint);
    return { kept: true, endpoint };
  }

  async giveBackSlot(claim: Pick<ClaimHeld, 'host' | 'slot'>): Promise<void> {
    this.slotsHeld.get(claim.host)?.delete(claim.slot);
  }

  async listAttempts(numberId: string, limit: number): Promise<AttemptRecord[]> {
    return this.attempts
      .filter((a) => a.number_id === numberId)
      .sort((a, b) => b.attempted_at.getTime() - a.attempted_at.getTime() || Number(b.id - a.id))
      .slice(0, limit)
      .map((a) => ({ ...a, event_type: this.deliveries.get(a.event_id)?.event_type ?? '' }));
  }

  /** Test helper: the backoff of a pending event is over. */
  backoffOver(eventId: string): void {
    const delivery = this.deliveries.get(eventId);
    if (delivery) delivery.next_attempt_at = new Date(0);
  }

  /** Test helper: the worker holding the event's lease died (its lease ran out, its attempt never finished). */
  leaseExpired(eventId: string): void {
    this.deliveries.get(eventId)!.lease_until = new Date(0);
  }

  attemptsOf(eventId: string): StoredAttempt[] {
    return this.attempts.filter((a) => a.event_id === eventId);
  }
}
