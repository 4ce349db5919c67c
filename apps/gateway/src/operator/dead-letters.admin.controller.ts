import { Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  DeadLetterIdParam,
  ListDeadLettersQuery,
  ServiceError,
  deadLetterReplayRpc,
  type DeadLetterList,
  type DeadLetterReplay,
  type DeadLetterView,
} from '@switchboard/contracts';
import {
  DeadLetterStore,
  MESSAGING_CONFIG,
  NATS_LINK,
  RpcClient,
  streamOwner,
  type MessagingConfig,
  type NatsLink,
} from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/**
 * The messages the services' durable consumers gave up on (operator contract, docs/operations.md "Dead letters"),
 * read from the dead-letter stream directly: they belong to no one service, and the service whose consumer failed
 * one may be the one that cannot answer. A replay is asked of the service that owns the message's stream (only it
 * may publish there), or done here for the gateway's own provider stream; once per dead letter.
 */
@Controller('admin/dead-letters')
@UseGuards(AdminTokenGuard)
export class DeadLettersAdminController {
  private readonly store: DeadLetterStore;

  constructor(
    @Inject(NATS_LINK) link: NatsLink,
    @Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig,
    private readonly rpc: RpcClient,
  ) {
    this.store = new DeadLetterStore(link, config);
  }

  @Get()
  list(@Query() query: ListDeadLettersQuery): Promise<DeadLetterList> {
    return this.store.list(query.limit, query.starting_after);
  }

  @Get(':dead_letter_id')
  show(@Param() params: DeadLetterIdParam): Promise<DeadLetterView> {
    return this.store.show(params.dead_letter_id);
  }

  @Post(':dead_letter_id/replay')
  @HttpCode(200)
  async replay(@Param() params: DeadLetterIdParam, @Caller() caller: CallerOptions): Promise<DeadLetterReplay> {
    const letter = await this.store.show(params.dead_letter_id);
    const owner = streamOwner(this.config, letter.stream);
    if (!owner) {
      throw new ServiceError(
        'invalid_request',
        `${letter.id} is of stream ${letter.stream}, which no service publishes.`,
      );
    }
    if (owner === 'gateway') return this.store.replay(letter.id, owner);
    return this.rpc.request(deadLetterReplayRpc(owner), { dead_letter_id: letter.id }, caller);
  }
}
