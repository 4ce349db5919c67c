import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { WebhookTargetRpc, type RpcReply, type WebhookTarget } from '@switchboard/contracts';
import { rpcSubject } from '@switchboard/messaging';

/**
 * Stands in for numbers-billing on `WebhookTargetRpc` (a plain NATS subscription), so these tests do not
 * depend on that service. Numbers it was not told about answer `not_found`.
 */
export class FakeNumbersBilling {
  private readonly targets = new Map<string, Omit<WebhookTarget, 'number_id'>>();
  private subscription: Subscription | undefined;
  /** Number ids asked for, in order. */
  readonly asked: string[] = [];

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  setTarget(numberId: string, target: Omit<WebhookTarget, 'number_id'>): this {
    this.targets.set(numberId, target);
    return this;
  }

  /** Starts answering (numbers-billing comes up). */
  start(): this {
    this.subscription ??= this.nc.subscribe(rpcSubject({ prefix: this.prefix }, WebhookTargetRpc.subject), {
      callback: (err, msg) => {
        if (err) return;
        const { number_id } = msg.json<{ number_id: string }>();
        this.asked.push(number_id);
        const target = this.targets.get(number_id);
        const reply: RpcReply<WebhookTarget> = target
          ? { ok: true, data: { number_id, ...target } }
          : { ok: false, error: { code: 'not_found', message: 'No number with that id.' } };
        msg.respond(JSON.stringify(reply));
      },
    });
    return this;
  }

  /** Stops answering (numbers-billing goes down). */
  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }
}
