import { Inject, Injectable } from '@nestjs/common';
import { API_KEY_REVOCATIONS_SUBJECT, type ApiKeyRevocation } from '@switchboard/contracts';
import { MESSAGING_CONFIG, NATS_LINK, rpcSubject, type MessagingConfig, type NatsLink } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';

/**
 * Tells every gateway replica of a key just revoked, on plain core NATS (`<prefix>.api-key-revocations.v1`, no queue
 * group): each ends its `webhook/listen` streams on the key at once (docs/adr/0128-webhook-signatures-secrets-and-listen.md). Published after
 * the revocation is committed. Nothing is kept: a replica that misses it (NATS away) ends those streams when it next
 * checks their keys in the database.
 */
@Injectable()
export class ApiKeyRevocations {
  constructor(
    @Inject(NATS_LINK) private readonly link: NatsLink,
    @Inject(MESSAGING_CONFIG) private readonly messaging: MessagingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  announce(revocation: ApiKeyRevocation): void {
    const nc = this.link.connection;
    try {
      if (!nc) throw new Error('NATS not connected yet');
      // While the client reconnects it keeps the message and sends it once connected.
      nc.publish(rpcSubject(this.messaging, API_KEY_REVOCATIONS_SUBJECT), JSON.stringify(revocation));
    } catch (err) {
      // The key is revoked all the same: every request with it is refused, and the replicas' checks end its streams.
      this.logger.warn({ err, key_id: revocation.key_id }, 'key revocation not announced to the other replicas');
    }
  }
}
