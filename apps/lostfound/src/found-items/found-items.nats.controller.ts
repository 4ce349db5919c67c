import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  FoundItemsRpc,
  type DisposalCommand,
  type FoundItemDetail,
  type FoundItemPage,
  type FoundItemView,
  type GetFoundItemQuery,
  type ListFoundItemsQuery,
  type LogFoundItemCommand,
} from '@switchboard/contracts';
import { Caller, RpcPattern, type RpcContext } from '@switchboard/messaging';
import { FoundItemsService } from './found-items.service';

/** `/lostfound/found-items` requests, forwarded by the gateway for the authenticated account. */
@Controller()
export class FoundItemsNatsController {
  constructor(private readonly items: FoundItemsService) {}

  @RpcPattern(FoundItemsRpc.log)
  log(@Payload() request: LogFoundItemCommand, @Caller() ctx: RpcContext): Promise<FoundItemView> {
    return this.items.log(request, ctx);
  }

  @RpcPattern(FoundItemsRpc.list)
  list(@Payload() request: ListFoundItemsQuery, @Caller() ctx: RpcContext): Promise<FoundItemPage> {
    return this.items.list(request, ctx);
  }

  @RpcPattern(FoundItemsRpc.get)
  get(@Payload() request: GetFoundItemQuery, @Caller() ctx: RpcContext): Promise<FoundItemDetail> {
    return this.items.get(request, ctx);
  }

  @RpcPattern(FoundItemsRpc.dispose)
  dispose(@Payload() request: DisposalCommand, @Caller() ctx: RpcContext): Promise<FoundItemDetail> {
    return this.items.dispose(request, ctx);
  }
}
