import { defineRpc, type RpcDescriptor } from '../messaging/rpc';
import type { ServiceName } from '../messaging/headers';
import { DeadLetterIdParam, type DeadLetterReplay } from './dead-letter.dto';

/**
 * Replays a dead letter of a stream the service owns: only a stream's owner may publish on its subjects, so the
 * gateway's operator API asks it (`dead-letters.v1.replay.<service>`) rather than publishing itself.
 */
export function deadLetterReplayRpc(service: ServiceName): RpcDescriptor<DeadLetterIdParam, DeadLetterReplay> {
  return defineRpc<DeadLetterIdParam, DeadLetterReplay>(`dead-letters.v1.replay.${service}`, DeadLetterIdParam);
}
