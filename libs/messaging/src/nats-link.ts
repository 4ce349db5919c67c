import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceName } from '@switchboard/contracts';
import type { Logger } from '@switchboard/observability';
import { connectNats } from './nats-connection';
import type { MessagingConfig } from './messaging.config';

/**
 * The NATS client's real state, as `/readyz` reports it: `connecting` until the first connection, `reconnecting`
 * between a lost connection and the next, `closed` once closed. Only `connected` can carry a request.
 */
export type NatsState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** How long the background connect waits between attempts while NATS is unreachable (as the client's reconnects). */
export const NATS_CONNECT_RETRY_MS = 500;

/**
 * One process's link to NATS: the connection once there is one, and its state, followed from the client's status
 * events (a connection object alone says "not closed" while it is reconnecting). Changes of state are logged
 * once each: unreachable at start, connected, lost, reconnected.
 */
export class NatsLink {
  private nc: NatsConnection | undefined;
  private current: NatsState = 'connecting';
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private readonly firstConnection: Promise<NatsConnection>;
  private resolveFirst!: (nc: NatsConnection) => void;
  private readonly firstAttempt: Promise<void>;
  private endFirstAttempt!: () => void;

  private constructor(private readonly logger: Logger | undefined) {
    this.firstConnection = new Promise((resolve) => (this.resolveFirst = resolve));
    this.firstAttempt = new Promise((resolve) => (this.endFirstAttempt = resolve));
  }

  /** Follows a connection that is already open (a service, which waits for NATS before it starts). */
  static follow(nc: NatsConnection, logger?: Logger): NatsLink {
    const link = new NatsLink(logger);
    link.adopt(nc);
    return link;
  }

  /**
   * Connects without making the caller wait (the gateway, which must answer 503 while NATS is away rather than
   * not listen at all): tries at once, logs once when NATS is unreachable, retries every `NATS_CONNECT_RETRY_MS`
   * until connected or closed, and logs when it connects.
   */
  static connectInBackground(config: MessagingConfig, name: ServiceName, logger: Logger): NatsLink {
    const link = new NatsLink(logger);
    void link.connectLoop(config, name);
    return link;
  }

  get state(): NatsState {
    return this.current;
  }

  /** The connection, once the first connect succeeded (it then reconnects by itself). */
  get connection(): NatsConnection | undefined {
    return this.nc;
  }

  /** Resolves with the connection once there is one. */
  connected(): Promise<NatsConnection> {
    return this.firstConnection;
  }

  /**
   * Resolves when the first attempt has connected or failed, or after `withinMs`, whichever is first: a gateway
   * waits this long before it listens, so with NATS up its first requests do not see `connecting`, and with NATS
   * down (or a server that does not answer a connect) it still listens at once.
   */
  async settled(withinMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.firstAttempt, new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)))]);
    clearTimeout(timer);
  }

  /** Stops connecting, or drains and closes the connection. Idempotent. */
  async close(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    const nc = this.nc;
    this.current = 'closed';
    if (nc && !nc.isClosed()) await nc.drain().catch(() => nc.close());
  }

  private async connectLoop(config: MessagingConfig, name: ServiceName): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        const nc = await connectNats(config, name, this.logger, { waitOnFirstConnect: false });
        if (this.stopped) {
          await nc.close();
          return;
        }
        if (failures > 0)
          this.logger?.info({ nats_url: config.natsUrl, failed_attempts: failures }, 'NATS reachable: connected');
        this.adopt(nc);
        return;
      } catch (error) {
        failures += 1;
        this.endFirstAttempt();
        if (failures === 1) {
          this.logger?.warn(
            { nats_url: config.natsUrl, reason: (error as Error)?.message ?? String(error) },
            `NATS unreachable: retrying every ${NATS_CONNECT_RETRY_MS} ms; requests needing it answer 503 until it connects`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, NATS_CONNECT_RETRY_MS);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  private adopt(nc: NatsConnection): void {
    this.nc = nc;
    this.endFirstAttempt();
    this.current = nc.isClosed() ? 'closed' : 'connected';
    this.resolveFirst(nc);
    void this.followStatus(nc);
    void nc.closed().then(() => (this.current = 'closed'));
  }

  private async followStatus(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (this.current === 'closed') return;
      if (status.type === 'disconnect' && this.current !== 'reconnecting') {
        this.current = 'reconnecting';
        this.logger?.warn(
          { server: status.server },
          'NATS connection lost: reconnecting; requests needing it answer 503 until it is back',
        );
      } else if (status.type === 'reconnect') {
        this.current = 'connected';
        this.logger?.info({ server: status.server }, 'NATS reconnected');
      } else if (status.type === 'close') {
        this.current = 'closed';
      }
    }
  }
}

/**
 * Starts what needs NATS (a consumer, a relay) in a process that listens before NATS answers (the gateway): waits for
 * the connection, runs `start`, and while `start` fails (JetStream not ready yet) reports the failure and tries again
 * every `retryMs`. Resolves once started, or when `isStopped()` turns true (the process is shutting down).
 */
export async function startWhenConnected(
  link: NatsLink,
  start: (nc: NatsConnection) => Promise<void>,
  options: { isStopped: () => boolean; onFailure: (error: unknown) => Promise<void> | void; retryMs?: number },
): Promise<void> {
  while (!options.isStopped()) {
    try {
      const nc = await link.connected();
      if (options.isStopped()) return;
      await start(nc);
      return;
    } catch (error) {
      await options.onFailure(error);
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 5_000).unref());
    }
  }
}
