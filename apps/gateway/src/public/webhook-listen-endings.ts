import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  API_KEY_REVOCATIONS_SUBJECT,
  ApiKeyRevocation,
  NumberReleasedEvent,
  NumberStateChanged,
} from '@switchboard/contracts';
import {
  MESSAGING_CONFIG,
  NATS_LINK,
  eventSubject,
  rpcSubject,
  validateMessage,
  type MessagingConfig,
  type NatsLink,
} from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { ApiKeysRepository } from '../api-keys/api-keys.repository';
import { LiveCallStreams } from '../live-calls/live-call-streams';
import { WebhookListeners } from './webhook-listeners';

/**
 * How often each replica checks its streams' keys in the database: the longest a stream outlives a revocation this
 * replica did not hear (NATS away when it was announced).
 */
export const KEY_CHECK_MS = 30_000;

/**
 * What ends this replica's `webhook/listen` streams from outside (docs/adr/0128-webhook-signatures-secrets-and-listen.md). It hears, on
 * plain subscriptions of its own (every replica, no queue group): the revocations any replica announces
 * (`ApiKeyRevocations`), which end the key's streams at once, and numbers-billing's `number.released` as it is
 * published to JetStream, which ends the number's. Every KEY_CHECK_MS it also asks the database which of its streams'
 * keys are still active, for a revocation it missed.
 */
@Injectable()
export class WebhookListenEndings implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly subscriptions: Subscription[] = [];
  private keyCheck: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    @Inject(NATS_LINK) private readonly link: NatsLink,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    private readonly listeners: WebhookListeners,
    private readonly liveStreams: LiveCallStreams,
    private readonly keys: ApiKeysRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    // The gateway starts without NATS (it answers 503 meanwhile); no stream opens before NATS is there either.
    void this.link.connected().then((nc) => this.follow(nc));
    this.keyCheck = setInterval(() => void this.checkKeys(), KEY_CHECK_MS);
    this.keyCheck.unref();
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    clearInterval(this.keyCheck);
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  /** Ends the streams whose key is no longer active; what the timer runs. */
  async checkKeys(): Promise<void> {
    const keyIds = [...new Set([...this.listeners.keyIds(), ...this.liveStreams.keyIds()])];
    if (keyIds.length === 0) return;
    try {
      const active = await this.keys.activeAmong(keyIds);
      for (const keyId of keyIds) if (!active.has(keyId)) this.endKey(keyId);
    } catch (err) {
      this.logger.warn({ err }, 'could not check the keys of webhook listen streams; checking again later');
    }
  }

  private follow(nc: NatsConnection): void {
    if (this.stopping) return;
    const follow = (subject: string, heard: (msg: Msg) => Promise<void>) => {
      const subscription = nc.subscribe(subject, { callback: (error, msg) => void (error ? undefined : heard(msg)) });
      this.subscriptions.push(subscription);
    };
    follow(rpcSubject(this.messaging, API_KEY_REVOCATIONS_SUBJECT), (msg) => this.revoked(msg));
    follow(eventSubject(this.messaging, NumberReleasedEvent.type), (msg) => this.released(msg));
  }

  private async revoked(msg: Msg): Promise<void> {
    let revocation: ApiKeyRevocation;
    try {
      revocation = await validateMessage(ApiKeyRevocation, msg.json());
    } catch (err) {
      this.logger.warn({ err }, 'unreadable key revocation ignored');
      return;
    }
    const ended = this.endKey(revocation.key_id);
    if (ended > 0) this.logger.info({ key_id: revocation.key_id, streams: ended }, 'revoked key: listen streams ended');
  }

  /** Ends the key's streams, webhook listeners and live call streams alike; answers how many. */
  private endKey(keyId: string): number {
    return this.listeners.endKey(keyId) + this.liveStreams.endKey(keyId);
  }

  private async released(msg: Msg): Promise<void> {
    let number: NumberStateChanged;
    try {
      number = await validateMessage(NumberStateChanged, msg.json<{ data?: unknown }>().data);
    } catch (err) {
      this.logger.warn({ err }, 'unreadable number.released ignored');
      return;
    }
    this.listeners.numberReleased(number.number_id);
  }
}
