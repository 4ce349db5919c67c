import { Injectable } from '@nestjs/common';
import {
  NumbersRpc,
  WebhookTargetRpc,
  type GetWebhookTargetQuery,
  type ListNumbersQuery,
  type NumberCreated,
  type NumberList,
  type NumberReleased,
  type ProvisionNumberCommand,
  type ReleaseNumberCommand,
  type WebhookTarget,
} from '@switchboard/contracts';
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { NumbersService } from './numbers.service';
import { ProvisioningService } from './provisioning.service';

/** Account-scoped number requests forwarded by the gateway, and the dispatcher's internal webhook-target query. */
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

  @RpcHandler(WebhookTargetRpc)
  webhookTarget(request: GetWebhookTargetQuery): Promise<WebhookTarget> {
    return this.numbers.webhookTarget(request.number_id, request.recipient_key);
  }
}
