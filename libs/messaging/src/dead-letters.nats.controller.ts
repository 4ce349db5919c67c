import { Controller, Inject, type Type } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  deadLetterReplayRpc,
  type DeadLetterIdParam,
  type DeadLetterReplay,
  type ServiceName,
} from '@switchboard/contracts';
import { DeadLetterStore } from './dead-letters';
import type { MessagingConfig } from './messaging.config';
import type { NatsLink } from './nats-link';
import { RpcPattern } from './rpc-pattern.decorator';
import { MESSAGING_CONFIG, NATS_LINK } from './tokens';

/**
 * The replay subject of a service that owns a stream (`dead-letters.v1.replay.<service>`): the gateway's operator API
 * asks it to republish one of its stream's dead letters, since only the owner may publish there. Made per service
 * because a pattern is fixed when its class is defined.
 */
export function deadLetterReplayControllerFor(service: ServiceName): Type<unknown> {
  @Controller()
  class DeadLetterReplayNatsController {
    private readonly store: DeadLetterStore;

    constructor(@Inject(NATS_LINK) link: NatsLink, @Inject(MESSAGING_CONFIG) config: MessagingConfig) {
      this.store = new DeadLetterStore(link, config);
    }

    @RpcPattern(deadLetterReplayRpc(service))
    replay(@Payload() request: DeadLetterIdParam): Promise<DeadLetterReplay> {
      return this.store.replay(request.dead_letter_id, service);
    }
  }
  return DeadLetterReplayNatsController;
}
