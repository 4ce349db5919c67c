import { Inject, Injectable } from '@nestjs/common';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';

export interface HostSlot {
  release(): void;
}

/** One receiver's share in this process: its attempts on the wire, and those waiting to go out, in order. */
interface HostShare {
  onWire: number;
  waiters: Waiter[];
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

/**
 * At most `WEBHOOK_HOST_CONCURRENCY` attempts at once to one receiver (host and port), so a slow or dead receiver
 * can hold a few of the dispatcher's slots, never all of them. Per process, in front of the count shared by every
 * replica (taken with the claim, DeliveriesRepository, ADR 0075), so a full process asks no database.
 *
 * An attempt to a receiver that already has one on the wire waits for it to end, up to
 * `WEBHOOK_CONNECTION_REUSE_WAIT_MS`, and then goes out on the connection it leaves idle; past the wait it goes out
 * at once on a new connection (docs/adr/0075-webhook-delivery.md). A new TLS connection costs the dispatcher
 * and the receiver far more CPU than the request it carries, and a burst of events to one receiver is common (one
 * account's numbers, retries coming due together). The limit counts waiting attempts with those on the wire.
 */
@Injectable()
export class HostLimiter {
  private readonly hosts = new Map<string, HostShare>();
  private readonly limit: number;
  private readonly reuseWaitMs: number;

  constructor(
    @Inject(DISPATCHER_CONFIG) config: Pick<WebhookDispatcherConfig, 'hostConcurrency' | 'connectionReuseWaitMs'>,
  ) {
    this.limit = config.hostConcurrency;
    this.reuseWaitMs = config.connectionReuseWaitMs;
  }

  /**
   * A slot for `host`, resolved when the attempt may go out: at once when the host has nothing on the wire, else
   * when one of its attempts ends or the reuse wait is over, whichever comes first. Undefined, at once, when the
   * host already has its share (on the wire and waiting).
   */
  acquire(host: string): Promise<HostSlot | undefined> {
    const share = this.hosts.get(host) ?? { onWire: 0, waiters: [] };
    if (share.onWire + share.waiters.length >= this.limit) return Promise.resolve(undefined);
    this.hosts.set(host, share);
    const slot = this.slotOf(host, share);
    if (share.onWire === 0 || this.reuseWaitMs === 0) {
      share.onWire += 1;
      return Promise.resolve(slot);
    }
    return new Promise<HostSlot>((resolve) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          share.onWire += 1;
          resolve(slot);
        },
        timer: setTimeout(() => {
          share.waiters.splice(share.waiters.indexOf(waiter), 1);
          waiter.start();
        }, this.reuseWaitMs),
      };
      share.waiters.push(waiter);
    });
  }

  /** Released once: the first waiter, if any, goes out on the connection this attempt leaves idle. */
  private slotOf(host: string, share: HostShare): HostSlot {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        share.onWire -= 1;
        share.waiters.shift()?.start();
        // Waiters exist only while an attempt is on the wire: none is left when the last one ends.
        if (share.onWire === 0) this.hosts.delete(host);
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
