import { Injectable } from '@nestjs/common';
import {
  LocationsRpc,
  type CreateLocationCommand,
  type DeskLocationList,
  type LocationOfAccount,
  type LocationView,
  type UpdateLocationCommand,
} from '@switchboard/contracts';
import { requireAccount, RpcHandler, type RpcContext } from '@switchboard/messaging';
import { LocationsService } from './locations.service';

/** Requests about locations, forwarded by the gateway: the operator's, and the console desk's list. */
@Injectable()
export class LocationsNatsController {
  constructor(private readonly locations: LocationsService) {}

  @RpcHandler(LocationsRpc.create)
  create(request: CreateLocationCommand): Promise<LocationView> {
    return this.locations.create(request);
  }

  /** For the console's desk: the caller's account (the `sb-account-id` header), never one named in the body. */
  @RpcHandler(LocationsRpc.listForAccount)
  listForAccount(_request: object, ctx: RpcContext): Promise<DeskLocationList> {
    return this.locations.listForAccount(requireAccount(ctx));
  }

  @RpcHandler(LocationsRpc.update)
  update(request: UpdateLocationCommand): Promise<LocationView> {
    return this.locations.update(request);
  }

  @RpcHandler(LocationsRpc.rotateSlug)
  rotateSlug(request: LocationOfAccount): Promise<LocationView> {
    return this.locations.rotateSlug(request);
  }
}
