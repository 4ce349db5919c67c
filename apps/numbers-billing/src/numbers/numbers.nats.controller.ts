import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
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
import { Caller, RpcPattern, type RpcContext } from '@switchboard/messaging';
import { NumbersService } from './numbers.service';
import { ProvisioningService } from './provisioning.service';

/**
 * Account-scoped number requests forwarded by the gateway, the dispatcher's internal webhook-target query and the
 * gateway's internal service-number query (simulated provider).
 */
@Controller()
export class NumbersNatsController {
  constructor(
    private readonly provisioning: ProvisioningService,
    private readonly numbers: NumbersService,
  ) {}

  @RpcPattern(NumbersRpc.provision)
  provision(@Payload() request: ProvisionNumberCommand, @Caller() ctx: RpcContext): Promise<NumberCreated> {
    return this.provisioning.provision(request, ctx);
  }

  @RpcPattern(NumbersRpc.list)
  list(@Payload() request: ListNumbersQuery, @Caller() ctx: RpcContext): Promise<NumberList> {
    return this.numbers.list(request, ctx.accountId);
  }

  @RpcPattern(NumbersRpc.release)
  release(@Payload() request: ReleaseNumberCommand, @Caller() ctx: RpcContext): Promise<NumberReleased> {
    return this.numbers.release(request.id, ctx);
  }

  @RpcPattern(NumbersRpc.get)
  get(@Payload() request: GetNumberQuery, @Caller() ctx: RpcContext): Promise<NumberView> {
    return this.numbers.get(request.id, ctx.accountId);
  }

  @RpcPattern(NumbersRpc.update)
  update(@Payload() request: UpdateNumberCommand, @Caller() ctx: RpcContext): Promise<NumberView> {
    return this.numbers.update(request, ctx);
  }

  @RpcPattern(ServiceNumberRpc)
  serviceNumber(@Payload() request: ServiceNumberQuery): Promise<ServiceNumberStanding> {
    return this.numbers.serviceNumber(request.phone_number, new Date(request.at));
  }

  @RpcPattern(WebhookTargetRpc)
  webhookTarget(@Payload() request: GetWebhookTargetQuery): Promise<WebhookTarget> {
    return this.numbers.webhookTarget(request.number_id, request.recipient_key);
  }
}
