import type { WebhookTarget, WebhookTargets } from './webhook-targets.port';

/**
 * The longest a kept target is used without a word from numbers-billing: a bound for a change this replica could
 * not tell it missed. Changes it hears make it ask again at once (ADR 0075).
 */
export const KEPT_TARGET_MS = 5 * 60_000;

/** Numbers whose target is kept at most (about 1 KiB each); the least recently used goes first. */
export const MAX_KEPT_TARGETS = 10_000;

interface Kept {
  target: WebhookTarget;
  /** Epoch milliseconds: asked again from then on. */
  until: number;
}

/** Look-ups of one number on the wire, and whether a change was heard since the first of them started. */
interface Asking {
  count: number;
  changed: boolean;
}

/**
 * Each dispatcher keeps the targets numbers-billing answered (ADR 0075), so a number's next delivery asks nothing;
 * `WebhookTargetChanges` tells it of every change, and a kept target is forgotten as the change is heard. Targets
 * are kept only while it listens: before its subscriptions stand, while NATS is away and after a subscription
 * failed, every look-up asks numbers-billing, as before. A look-up answered across a change is used once, not kept.
 * A `fresh` look-up always asks (and keeps the answer): a test event the integrator sends right after changing the
 * URL or rotating the secret must not race the change's event.
 * A target is kept no longer than KEPT_TARGET_MS, nor past the end of its previous secret's overlap (ADR 0128).
 */
export class KeptWebhookTargets implements WebhookTargets {
  private readonly kept = new Map<string, Kept>();
  private readonly asking = new Map<string, Asking>();
  private listening = false;

  constructor(
    private readonly source: WebhookTargets,
    private readonly now: () => number = Date.now,
  ) {}

  async find(numberId: string, correlationId: string, options: { fresh?: boolean } = {}): Promise<WebhookTarget> {
    const hit = this.kept.get(numberId);
    if (hit) {
      this.kept.delete(numberId);
      if (hit.until > this.now() && !options.fresh) {
        this.kept.set(numberId, hit); // most recently used last
        return hit.target;
      }
    }
    const asking = this.asking.get(numberId) ?? { count: 0, changed: !this.listening };
    asking.count += 1;
    this.asking.set(numberId, asking);
    try {
      const target = await this.source.find(numberId, correlationId);
      if (!asking.changed && this.listening) this.keep(numberId, target);
      return target;
    } finally {
      asking.count -= 1;
      if (asking.count === 0) this.asking.delete(numberId);
    }
  }

  /** A change of the number was heard: its target is asked again. */
  forget(numberId: string): void {
    this.kept.delete(numberId);
    const asking = this.asking.get(numberId);
    if (asking) asking.changed = true;
  }

  /** Changes may have been missed (a lost connection, a dropped message): every target is asked again. */
  forgetAll(): void {
    this.kept.clear();
    for (const asking of this.asking.values()) asking.changed = true;
  }

  /** Changes are heard from now on: targets may be kept. */
  startKeeping(): void {
    this.listening = true;
  }

  /** Changes are no longer heard: nothing kept is used, nothing new is kept. */
  stopKeeping(): void {
    this.listening = false;
    this.forgetAll();
  }

  get size(): number {
    return this.kept.size;
  }

  private keep(numberId: string, target: WebhookTarget): void {
    let until = this.now() + KEPT_TARGET_MS;
    if (target.previous_webhook_secret) {
      // Signed with both secrets until the overlap ends; with no end known, asked again each time.
      const overlapEnds = Date.parse(target.previous_webhook_secret_expires_at ?? '');
      if (Number.isNaN(overlapEnds)) return;
      until = Math.min(until, overlapEnds);
    }
    this.kept.set(numberId, { target, until });
    if (this.kept.size > MAX_KEPT_TARGETS) this.kept.delete(this.kept.keys().next().value as string);
  }
}
