import { NumbersRpc, ServiceError, WebhookTargetRpc, webhookSecretSealContext } from '@switchboard/contracts';
import { createAccount } from './factories/account.factory';
import { numberCreate } from './factories/number.factory';
import { startNumbersBilling, type NumbersBillingHarness } from './support/numbers-billing-harness';
import { DISPATCHER_KEY } from './support/webhook-target';

jest.setTimeout(60_000);

let h: NumbersBillingHarness;
beforeAll(async () => {
  h = await startNumbersBilling();
});
afterAll(() => h?.stop());

async function errorOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** What the dispatcher opens: the current secret and, during an overlap, the previous one. */
async function secretsSigningFor(numberId: string): Promise<{ current: string; previous: string | null }> {
  const reply = await h.request(WebhookTargetRpc, { number_id: numberId, recipient_key: DISPATCHER_KEY.publicKey });
  const context = webhookSecretSealContext(numberId);
  return {
    current: DISPATCHER_KEY.open(reply.webhook_secret_sealed, context),
    previous: reply.previous_webhook_secret_sealed
      ? DISPATCHER_KEY.open(reply.previous_webhook_secret_sealed, context)
      : null,
  };
}

describe('webhook secret rotation (numbers.v1.webhook-secret.rotate)', () => {
  it('makes a new secret, keeps the old one signing for the overlap, and answers a retry with the same key the same secret', async () => {
    const account = await createAccount(h);
    const created = await h.request(
      NumbersRpc.provision,
      numberCreate({ webhook_url: 'https://93.184.215.14/hooks' }),
      account.id,
    );
    const before = Date.now();

    const rotated = await h.request(
      NumbersRpc.rotateWebhookSecret,
      { id: created.id, overlap_hours: 24, idempotency_key: 'rot-1' },
      account.id,
    );
    expect(rotated.webhook_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.webhook_secret).not.toBe(created.webhook_secret);
    const expires = Date.parse(rotated.previous_secret_expires_at!);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expires - before).toBeLessThan(24 * 3600_000 + 60_000);
    expect(await secretsSigningFor(created.id)).toEqual({
      current: rotated.webhook_secret,
      previous: created.webhook_secret,
    });

    const replay = await h.request(
      NumbersRpc.rotateWebhookSecret,
      { id: created.id, overlap_hours: 24, idempotency_key: 'rot-1' },
      account.id,
    );
    expect(replay).toEqual(rotated);

    // The target tells the dispatcher when to stop signing with the old secret (it keeps the target no longer), and
    // the rotation, not its replay, is published as number.updated of a new version: every dispatcher forgets the
    // target it kept (ADR 0075).
    const target = await h.request(WebhookTargetRpc, {
      number_id: created.id,
      recipient_key: DISPATCHER_KEY.publicKey,
    });
    expect(target.previous_webhook_secret_expires_at).toBe(rotated.previous_secret_expires_at);
    const updates = (await h.prisma.outboxEvent.findMany({ where: { type: 'number.updated' } }))
      .map((row) => (row.payload as { data: { number_id: string; version: string } }).data)
      .filter((data) => data.number_id === created.id);
    expect(updates).toHaveLength(1);
    expect(BigInt(updates[0].version)).toBeGreaterThan(1n);

    // A second rotation retires the first new secret; the original one no longer signs.
    const again = await h.request(NumbersRpc.rotateWebhookSecret, { id: created.id }, account.id);
    expect(await secretsSigningFor(created.id)).toEqual({
      current: again.webhook_secret,
      previous: rotated.webhook_secret,
    });
  });

  it('ends the old secret at once with overlap_hours 0, and after the overlap', async () => {
    const account = await createAccount(h);
    const created = await h.request(
      NumbersRpc.provision,
      numberCreate({ webhook_url: 'https://93.184.215.14/hooks' }),
      account.id,
    );
    const rotated = await h.request(NumbersRpc.rotateWebhookSecret, { id: created.id, overlap_hours: 0 }, account.id);
    expect(rotated.previous_secret_expires_at).toBeNull();
    expect(await secretsSigningFor(created.id)).toEqual({ current: rotated.webhook_secret, previous: null });

    const next = await h.request(NumbersRpc.rotateWebhookSecret, { id: created.id, overlap_hours: 1 }, account.id);
    expect((await secretsSigningFor(created.id)).previous).toBe(rotated.webhook_secret);
    await h.prisma
      .$executeRaw`UPDATE numbers SET previous_webhook_secret_expires_at = now() - interval '1 second' WHERE id = ${BigInt(created.id.slice(4))}`;
    expect(await secretsSigningFor(created.id)).toEqual({ current: next.webhook_secret, previous: null });
  });

  it("refuses another account's number (not_found) and a released one (number_released), changing nothing", async () => {
    const owner = await createAccount(h);
    const stranger = await createAccount(h);
    const created = await h.request(
      NumbersRpc.provision,
      numberCreate({ webhook_url: 'https://93.184.215.14/hooks' }),
      owner.id,
    );
    expect((await errorOf(h.request(NumbersRpc.rotateWebhookSecret, { id: created.id }, stranger.id))).code).toBe(
      'not_found',
    );
    expect(await secretsSigningFor(created.id)).toEqual({ current: created.webhook_secret, previous: null });

    await h.request(NumbersRpc.release, { id: created.id }, owner.id);
    expect((await errorOf(h.request(NumbersRpc.rotateWebhookSecret, { id: created.id }, owner.id))).code).toBe(
      'number_released',
    );
  });
});
