import { jetstreamManager, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { StreamDefinition } from '@switchboard/contracts';
import { eventSubject, streamName, type MessagingConfig } from './messaging.config';

export const NANOS_PER_MS = 1_000_000;

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
  await addStreamIfMissing(manager, {
    name,
    subjects: [eventSubject(config, stream.types)],
    storage: 'file',
    num_replicas: config.streamReplicas ?? 1,
    retention: 'limits',
    max_age: 30 * 24 * 3600 * 1000 * NANOS_PER_MS,
    duplicate_window: 120_000 * NANOS_PER_MS,
  });
  return name;
}

/**
 * Adds the stream unless it exists. Every service that publishes or consumes calls this at start, in any order: one
 * that lost the race between the check and the add finds the stream there and goes on.
 */
export async function addStreamIfMissing(
  manager: JetStreamManager,
  stream: Partial<StreamConfig> & { name: string },
): Promise<void> {
  try {
    await manager.streams.info(stream.name);
  } catch {
    try {
      await manager.streams.add(stream);
    } catch (error) {
      await manager.streams.info(stream.name).catch(() => {
        throw error;
      });
    }
  }
}
