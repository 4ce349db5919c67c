import { Injectable } from '@nestjs/common';
import {
  NumbersRpc,
  ServiceNumberRpc,
  WebhookTargetRpc,
  type GetNumberQuery,
  type GetWebhookTargetQuery,
  type ListNumbersQuery,
  type NumberCreated,
  type NumberList,
  type NumberReleased,
  type ProvisionNumberCommand,
  type NumberView,
  type ReleaseNumberCommand,
  type ServiceNumberQuery,
  type ServiceNumberStanding,
  type UpdateNumberCommand,
  type WebhookTarget,
} from '@switchboard/contracts';
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { NumbersService } from './numbers.service';
import { ProvisioningService } from './provisioning.service';

/**
 * Account-scoped number requests forwarded by the gateway, the dispatcher's internal webhook-target query and the
 * gateway's internal service-number query (simulated provider).
 */
@Injectable()
export class NumbersNatsController {
  constructor(
    private readonly provisioning: ProvisioningService,
    private readonly numbers: NumbersService,
  ) {}

  @RpcHandler(NumbersRpc.provision)
  provision(request: ProvisionNumberCommand, ctx: RpcContext): Promise<NumberCreated> {
    return this.provisioning.provision(request, ctx);
  }

  @RpcHandler(NumbersRpc.list)
  list(request: ListNumbersQuery, ctx: RpcContext): Promise<NumberList> {
    return this.numbers.list(request, ctx.accountId);
  }

  @RpcHandler(NumbersRpc.release)
  release(request: ReleaseNumberCommand, ctx: RpcContext): Promise<NumberReleased> {
    return this.numbers.release(request.id, ctx);
  }

  @RpcHandler(NumbersRpc.get)
  get(request: GetNumberQuery, ctx: RpcContext): Promise<NumberView> {
    return this.numbers.get(request.id, ctx.accountId);
  }

  @RpcHandler(NumbersRpc.update)
  update(request: UpdateNumberCommand, ctx: RpcContext): Promise<NumberView> {
    return this.numbers.update(request, ctx);
  }

  @RpcHandler(ServiceNumberRpc)
  serviceNumber(request: ServiceNumberQuery): Promise<ServiceNumberStanding> {
    return this.numbers.serviceNumber(request.phone_number, new Date(request.at));
  }

  @RpcHandler(WebhookTargetRpc)
  webhookTarget(request: GetWebhookTargetQuery): Promise<WebhookTarget> {
    return this.numbers.webhookTarget(request.number_id, request.recipient_key);
  }
}
