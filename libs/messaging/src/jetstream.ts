import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { StreamDefinition } from '@switchboard/contracts';
import { eventSubject, streamName, type MessagingConfig } from './messaging.config';

const NANOS_PER_MS = 1_000_000;

/**
 * Creates the stream if it is missing (publishers and consumers both call this, so start-up order does not
 * matter). File storage, so events survive a NATS restart; a 2-minute duplicate window de-duplicates
 * republished outbox rows by message id; consumers also de-duplicate on domain keys. On a NATS cluster the stream
 * keeps `config.streamReplicas` copies (NATS_STREAM_REPLICAS), so it survives losing a node.
 */
export async function ensureStream(
  nc: NatsConnection,
  config: MessagingConfig,
  stream: StreamDefinition,
  jsm?: JetStreamManager,
): Promise<string> {
  const manager = jsm ?? (await jetstreamManager(nc));
  const name = streamName(config, stream.name);
  const subjects = [eventSubject(config, stream.types)];
  try {
    await manager.streams.info(name);
  } catch {
    try {
      await manager.streams.add({
        name,
        subjects,
        storage: 'file',
        num_replicas: config.streamReplicas ?? 1,
        retention: 'limits',
        max_age: 30 * 24 * 3600 * 1000 * NANOS_PER_MS,
        duplicate_window: 120_000 * NANOS_PER_MS,
      });
    } catch (error) {
      // Another service created it between our check and our add: that is fine.
      await manager.streams.info(name).catch(() => {
        throw error;
      });
    }
  }
  return name;
}
