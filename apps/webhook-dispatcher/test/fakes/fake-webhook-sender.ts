import type { WebhookRequest, WebhookResponse, WebhookSender } from '../../src/webhook-sender/webhook-sender.port';

/** Answers from a script (the last answer repeats) and keeps every request. */
export class FakeWebhookSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];

  constructor(private readonly script: WebhookResponse[] = [{ statusCode: 200 }]) {}

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    return this.script[Math.min(this.requests.length - 1, this.script.length - 1)];
  }
}
