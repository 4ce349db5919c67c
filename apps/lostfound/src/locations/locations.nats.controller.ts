import { Injectable } from '@nestjs/common';
import { LocationsRpc, type CreateLocationCommand, type LocationOfAccount, type LocationView, type UpdateLocationCommand } from '@switchboard/contracts';
import { RpcHandler } from '@switchboard/messaging';
import { LocationsService } from './locations.service';

/** Operator requests about locations, forwarded by the gateway. */
@Injectable()
export class LocationsNatsController {
  constructor(private readonly locations: LocationsService) {}

  @RpcHandler(LocationsRpc.create)
  create(request: CreateLocationCommand): Promise<LocationView> {
    return this.locations.create(request);
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
