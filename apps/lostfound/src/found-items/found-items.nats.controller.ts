import { Injectable } from '@nestjs/common';
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
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { FoundItemsService } from './found-items.service';

/** `/lostfound/found-items` requests, forwarded by the gateway for the authenticated account. */
@Injectable()
export class FoundItemsNatsController {
  constructor(private readonly items: FoundItemsService) {}

  @RpcHandler(FoundItemsRpc.log)
  log(request: LogFoundItemCommand, ctx: RpcContext): Promise<FoundItemView> {
    return this.items.log(request, ctx);
  }

  @RpcHandler(FoundItemsRpc.list)
  list(request: ListFoundItemsQuery, ctx: RpcContext): Promise<FoundItemPage> {
    return this.items.list(request, ctx);
  }

  @RpcHandler(FoundItemsRpc.get)
  get(request: GetFoundItemQuery, ctx: RpcContext): Promise<FoundItemDetail> {
    return this.items.get(request, ctx);
  }

  @RpcHandler(FoundItemsRpc.dispose)
  dispose(request: DisposalCommand, ctx: RpcContext): Promise<FoundItemDetail> {
    return this.items.dispose(request, ctx);
  }
}
