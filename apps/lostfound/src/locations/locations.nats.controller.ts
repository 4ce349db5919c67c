import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  LocationsRpc,
  type CreateLocationCommand,
  type DeskLocationList,
  type LocationOfAccount,
  type LocationView,
  type UpdateLocationCommand,
} from '@switchboard/contracts';
import { Caller, requireAccount, RpcPattern, type RpcContext } from '@switchboard/messaging';
import { LocationsService } from './locations.service';

/** Requests about locations, forwarded by the gateway: the operator's, and the console desk's list. */
@Controller()
export class LocationsNatsController {
  constructor(private readonly locations: LocationsService) {}

  @RpcPattern(LocationsRpc.create)
  create(@Payload() request: CreateLocationCommand): Promise<LocationView> {
    return this.locations.create(request);
  }

  /** For the console's desk: the caller's account (the `sb-account-id` header), never one named in the body. */
  @RpcPattern(LocationsRpc.listForAccount)
  listForAccount(@Payload() _request: object, @Caller() ctx: RpcContext): Promise<DeskLocationList> {
    return this.locations.listForAccount(requireAccount(ctx));
  }

  @RpcPattern(LocationsRpc.update)
  update(@Payload() request: UpdateLocationCommand): Promise<LocationView> {
    return this.locations.update(request);
  }

  @RpcPattern(LocationsRpc.rotateSlug)
  rotateSlug(@Payload() request: LocationOfAccount): Promise<LocationView> {
    return this.locations.rotateSlug(request);
  }
}
