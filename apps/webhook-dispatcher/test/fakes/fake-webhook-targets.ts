import type { ServiceError } from '@switchboard/contracts';
import type { WebhookTarget, WebhookTargets } from '../../src/webhook-target/webhook-targets.port';

/** numbers-billing's answers, per number id; an error is thrown as numbers-billing's RpcClient would. */
export class FakeWebhookTargets implements WebhookTargets {
  readonly asked: string[] = [];
  private readonly answers = new Map<string, WebhookTarget | ServiceError>();

  /** `webhook_events` left out: `call.completed` only, as numbers-billing answers for a number that opted in to nothing. */
  set(
    numberId: string,
    answer: (Omit<WebhookTarget, 'number_id' | 'webhook_events'> & Partial<WebhookTarget>) | ServiceError,
  ): this {
    this.answers.set(
      numberId,
      answer instanceof Error ? answer : { number_id: numberId, webhook_events: ['call.completed'], ...answer },
    );
    return this;
  }

  async find(numberId: string): Promise<WebhookTarget> {
    this.asked.push(numberId);
    const answer = this.answers.get(numberId);
    if (!answer) throw new Error(`FakeWebhookTargets: no answer set for ${numberId}`);
    if (answer instanceof Error) throw answer;
    return answer;
  }
}
