import { Inject, Injectable } from '@nestjs/common';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';

export interface HostSlot {
  release(): void;
}

/**
 * At most `WEBHOOK_HOST_CONCURRENCY` attempts on the wire at once to one receiver (host and port), so a slow or
 * dead receiver can hold a few of the dispatcher's slots, never all of them. Per process, in front of the count
 * shared by every replica (taken with the claim, DeliveriesRepository, ADR 0076), so a full process asks no database.
 */
@Injectable()
export class HostLimiter {
  private readonly inUse = new Map<string, number>();
  private readonly limit: number;

  constructor(@Inject(DISPATCHER_CONFIG) config: Pick<WebhookDispatcherConfig, 'hostConcurrency'>) {
    this.limit = config.hostConcurrency;
  }

  /** A slot for `host`, or undefined when the host already has its share. */
  tryAcquire(host: string): HostSlot | undefined {
    const used = this.inUse.get(host) ?? 0;
    if (used >= this.limit) return undefined;
    this.inUse.set(host, used + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.inUse.get(host) ?? 1) - 1;
        if (left <= 0) this.inUse.delete(host);
        else this.inUse.set(host, left);
      },
    };
  }

  /** The key a URL is limited under: lower-case host and port. Unparseable URLs share one key. */
  static keyOf(url: string): string {
    try {
      const parsed = new URL(url);
      return `${parsed.hostname.toLowerCase()}:${parsed.port || '443'}`;
    } catch {
      return 'invalid-url';
    }
  }
}
