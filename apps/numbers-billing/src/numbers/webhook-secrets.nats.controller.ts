import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { NumbersRpc, type RotateWebhookSecretCommand, type WebhookSecretRotated } from '@switchboard/contracts';
import { Caller, RpcPattern, type RpcContext } from '@switchboard/messaging';
import { WebhookSecretRotation } from './webhook-secret-rotation.service';

/** `POST /v1/numbers/{id}/webhook-secret/rotate`, forwarded by the gateway (account-scoped). */
@Controller()
export class WebhookSecretsNatsController {
  constructor(private readonly rotation: WebhookSecretRotation) {}

  @RpcPattern(NumbersRpc.rotateWebhookSecret)
  rotate(@Payload() request: RotateWebhookSecretCommand, @Caller() ctx: RpcContext): Promise<WebhookSecretRotated> {
    return this.rotation.rotate(request, ctx);
  }
}
