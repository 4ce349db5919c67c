import { Injectable } from '@nestjs/common';
import { NumbersRpc, type RotateWebhookSecretCommand, type WebhookSecretRotated } from '@switchboard/contracts';
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { WebhookSecretRotation } from './webhook-secret-rotation.service';

/** `POST /v1/numbers/{id}/webhook-secret/rotate`, forwarded by the gateway (account-scoped). */
@Injectable()
export class WebhookSecretsNatsController {
  constructor(private readonly rotation: WebhookSecretRotation) {}

  @RpcHandler(NumbersRpc.rotateWebhookSecret)
  rotate(request: RotateWebhookSecretCommand, ctx: RpcContext): Promise<WebhookSecretRotated> {
    return this.rotation.rotate(request, ctx);
  }
}
