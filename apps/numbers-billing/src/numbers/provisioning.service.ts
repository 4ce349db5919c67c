import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_MAX_CALL_MINUTES,
  IDEMPOTENCY_KEY_RETENTION_MS,
  NumberProvisionedEvent,
  ServiceError,
  analysisFieldsProblem,
  areaCodeOf,
  formatUtcTime,
  isTestAccount,
  type NumberCreated,
  type ProvisionNumberCommand,
} from '@switchboard/contracts';
import { requireAccount, type EventCause, type RpcContext } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { SecretBox, newWebhookSecret } from '../crypto/secret-box';
import { LedgerRepository } from '../ledger/ledger.repository';
import { NUMBER_MONTHLY_PRICE_MILLICENTS } from '../money/money';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { LOCKING_TX, NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { NoNumbersAvailable, TELEPHONY_PROVIDER, type TelephonyProvider } from '../telephony/telephony-provider.port';
import { NUMBER_AGENTS, type NumberAgents } from './number-agent.port';
import { NUMBER_CHARGING, type NumberCharging } from './number-charging.port';
import { formatNumberId } from './number-id';
import { NumberLifecycle } from './number-lifecycle';
import {
  NumberOrdersRepository,
  isLeaseLive,
  leaseSecondsLeft,
  type OrderRecord,
  type ProvisioningStanding,
} from './number-orders.repository';
import { secretContext, storedWebhookEvents, toNumberView, type NumberRecord } from './number-record';
import { NumbersRepository } from './numbers.repository';
import { WebhookUrlPolicy } from './webhook-url';

/** The failure code of an order whose purchase was refused: its phone number is in service on another number. */
export const IN_SERVICE_FAILURE = 'number_in_service';

/** The number that holds a phone number, when a purchase of it is refused. */
type InServiceHolder = Pick<NumberRecord, 'id' | 'account_id'>;

export const VELOCITY_LIMIT = 3;
export const VELOCITY_WINDOW_MS = 3_600_000;

type Begin = { kind: 'buy'; order: OrderRecord } | { kind: 'replay'; numberId: bigint };

/**
 * `POST /numbers` (spec parts 3, 4, 7, 8). Three steps, so no lock is held while the provider is asked:
 * 1. with the account row locked, check the balance (402), the number limit and the velocity limit (429), counting
 *    orders still in flight, and record a pending order that holds $5;
 * 2. buy at the provider (409 `no_numbers`, 503 `provider_unavailable`: the order fails, nothing is charged);
 * 3. with the account locked again, store the number, charge its first month and publish `number.provisioned`.
 * Concurrent requests are serialised on the account row in steps 1 and 3, so they cannot spend the same dollars
 * twice or pass a limit together (docs/adr/0011-provisioning-numbers.md).
 */
@Injectable()
export class ProvisioningService {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly ledger: LedgerRepository,
    private readonly numbers: NumbersRepository,
    private readonly orders: NumberOrdersRepository,
    private readonly lifecycle: NumberLifecycle,
    private readonly outbox: NumbersOutbox,
    private readonly secrets: SecretBox,
    @Inject(NUMBER_CHARGING) private readonly charging: NumberCharging,
    @Inject(NUMBER_AGENTS) private readonly agents: NumberAgents,
    private readonly webhookUrls: WebhookUrlPolicy,
    @Inject(TELEPHONY_PROVIDER) private readonly provider: TelephonyProvider,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async provision(command: ProvisionNumberCommand, ctx: RpcContext): Promise<NumberCreated> {
    const accountId = requireAccount(ctx);
    const cause: EventCause = { correlationId: ctx.requestId ?? randomUUID() };
    const areaCode = command.area_code ?? areaCodeOf(command.business_phone);
    // The agent's analysis fields across each other (names unique, enum choices): refused before anything is held,
    // named as in the body (`agent.analysis_fields[1].name ...`).
    const analysisProblem = analysisFieldsProblem(command.agent?.analysis_fields ?? []);
    if (analysisProblem) throw new ServiceError('invalid_request', `agent.${analysisProblem}`);
    // Stored normalised (ADR 0057); the Idempotency-Key stays bound to the body as sent.
    const webhookUrl = command.webhook_url !== undefined ? await this.webhookUrls.accept(command.webhook_url) : null;

    const begin = await this.begin(accountId, command, areaCode, webhookUrl);
    if (begin.kind === 'replay') return this.replay(begin.numberId);
    const { order } = begin;

    let phoneNumber: string;
    try {
      ({ phoneNumber } = await this.provider.buyNumber({
        areaCode,
        orderRef: order.id,
        livemode: !isTestAccount(accountId),
      }));
    } catch (error) {
      const noStock = error instanceof NoNumbersAvailable;
      await this.orders.fail(order.id, noStock ? 'no_numbers' : 'provider_unavailable');
      if (noStock) throw new ServiceError('no_numbers', `No numbers are available in area code ${areaCode}.`);
      this.logger.warn({ err: error, order_id: order.id, area_code: areaCode }, 'provider purchase failed');
      throw new ServiceError(
        'provider_unavailable',
        'The telephony provider is unavailable; nothing was charged. Retry shortly (with the same Idempotency-Key).',
      );
    }

    const created = await this.complete(order, phoneNumber, command.agent, cause).catch(async (error: unknown) => {
      // Two purchases of one phone number racing past the check below: the partial unique index refused this one.
      if (!isInServiceViolation(error)) throw error;
      await this.orders.fail(order.id, IN_SERVICE_FAILURE);
      return { kind: 'in_service' as const, holder: null };
    });
    if (created.kind === 'in_service') throw await this.refuseInService(order, phoneNumber, created.holder);
    this.outbox.kick();
    this.agents.pushSoon();
    if (created.kind === 'replay') return this.replay(created.numberId);
    await this.charging
      .afterCharge(accountId, cause)
      .catch((err) => this.logger.error({ err, account_id: accountId }, 'auto-top-up check failed'));
    return { ...toNumberView(created.number), webhook_secret: created.secret };
  }

  private async begin(
    accountId: string,
    command: ProvisionNumberCommand,
    areaCode: string,
    webhookUrl: string | null,
  ): Promise<Begin> {
    const now = new Date();
    const velocitySince = new Date(now.getTime() - VELOCITY_WINDOW_MS);
    const fingerprint = fingerprintOf(command);

    // Pre-check without the lock: a burst against one account (1,000 at once) is refused here at once instead of
    // queueing on the account row to be refused there one by one. It applies the locked check's rules, with the same
    // `now`, to the standing read by one statement (one committed snapshot, an order counted once, as a hold or as a
    // number), and refuses only what the locked check would refuse:
    // - Between the snapshot and the lock, concurrent work only makes these rules stricter. Other provisions add
    //   holds; a completing order turns its hold into a number (counted by both limits as the hold was, and created
    //   inside the window) and its $5 hold into a $5 charge; calls and monthly charges lower the balance; numbers are
    //   never deleted and `now` is fixed, so none leaves the velocity window. A rule broken in the snapshot is still
    //   broken under the lock. (A rule checked before it may have become broken as well; the locked check would then
    //   give that rule's code. Both are the locked check's answer at some moment during this request.)
    // - What loosens a rule (a credit or auto-top-up, a release, the operator raising the limit, a pending order
    //   failing at the provider) had not committed at the snapshot. Refusing answers as if this request had taken
    //   the lock just before that commit, as the locked path does whenever it comes first; it, too, counts holds
    //   that fail a moment later (`orders.fail` does not take the lock).
    // - With an Idempotency-Key that already has an order, the answer may be a replay or a key error rather than a
    //   refusal: `standing` is null then and the locked path decides, as for an unknown account.
    // What passes is judged again under the lock, exactly as before.
    const standing = await this.orders.standing(accountId, now, velocitySince, command.idempotency_key ?? null);
    const early = standing && provisioningRefusal(standing);
    if (early) throw early;

    return this.transactions.run(async (tx): Promise<Begin> => {
      const account = await this.ledger.lockAccount(tx, accountId);
      if (!account) throw new ServiceError('unauthorized', 'The account of this key no longer exists.');

      let order: OrderRecord | null = null;
      if (command.idempotency_key !== undefined) {
        order = await this.orders.lockByKey(tx, accountId, command.idempotency_key);
        if (order && order.fingerprint !== fingerprint) {
          throw new ServiceError(
            'idempotency_key_reused',
            'This Idempotency-Key was used with another request body; use a new key.',
          );
        }
        if (order?.status === 'completed' && order.number_id !== null)
          return { kind: 'replay', numberId: order.number_id };
        if (order?.status === 'pending' && isLeaseLive(order, now)) {
          // Also what a retry meets after a crash mid-provision, until the lease ends: Retry-After says when.
          throw new ServiceError(
            'idempotency_key_in_use',
            'A request with this Idempotency-Key is still in progress; retry shortly.',
            leaseSecondsLeft(order, now),
          );
        }
      }

      // The same rules as the pre-check, now judged under the account's lock.
      const orderId = order?.id ?? randomUUID();
      const holds = await this.orders.pendingHolds(tx, accountId, now, orderId);
      const refusal = provisioningRefusal({
        balance_millicents: account.balance_millicents,
        number_limit: account.number_limit,
        held: await this.numbers.countHeld(tx, accountId),
        recent: await this.numbers.countProvisionedSince(tx, accountId, velocitySince),
        holds,
      });
      if (refusal) throw refusal;

      if (order) {
        // A failed order retried, or an abandoned one taken over: same id, so the provider answers the same number.
        await this.orders.renew(tx, order.id, now);
        return { kind: 'buy', order: { ...order, status: 'pending', updated_at: now } };
      }
      const fresh = {
        id: orderId,
        account_id: accountId,
        idempotency_key: command.idempotency_key ?? null,
        fingerprint,
        business_phone: command.business_phone,
        area_code: areaCode,
        webhook_url: webhookUrl,
        webhook_events: command.webhook_events === undefined ? [] : storedWebhookEvents(command.webhook_events),
        max_call_minutes: command.max_call_minutes ?? DEFAULT_MAX_CALL_MINUTES,
        hold_millicents: NUMBER_MONTHLY_PRICE_MILLICENTS,
      };
      await this.orders.create(tx, fresh, now);
      return {
        kind: 'buy',
        order: { ...fresh, status: 'pending', number_id: null, failure_code: null, created_at: now, updated_at: now },
      };
    }, LOCKING_TX);
  }

  private complete(
    order: OrderRecord,
    phoneNumber: string,
    agent: ProvisionNumberCommand['agent'],
    cause: EventCause,
  ): Promise<
    | { kind: 'created'; number: NumberRecord; secret: string }
    | { kind: 'replay'; numberId: bigint }
    | { kind: 'in_service'; holder: InServiceHolder | null }
  > {
    return this.transactions.run(async (tx) => {
      const account = await this.ledger.lockAccount(tx, order.account_id);
      const current = await this.orders.lock(tx, order.id);
      if (!account || !current) throw new Error(`order ${order.id} or its account vanished`);
      if (current.status === 'completed' && current.number_id !== null)
        return { kind: 'replay' as const, numberId: current.number_id };
      if (current.status !== 'pending') {
        // Failed meanwhile: reconciliation found it abandoned past its lease and gave the number back to the provider
        // (docs/adr/0011-provisioning-numbers.md). Recording it now would charge for a number we no longer own.
        throw new ServiceError(
          'provider_unavailable',
          'The purchase took too long and was given up; nothing was charged. Retry (with the same Idempotency-Key).',
        );
      }

      // One number in service per phone number (docs/adr/0121): a provider that sells us a phone number another
      // number still holds (the Twilio stand-in selling what the simulated pool handed out, issue 47) is refused, and
      // the order fails with nothing charged. The partial unique index makes the same refusal under a race.
      const holder = await this.numbers.findInService(tx, phoneNumber);
      if (holder) {
        await this.orders.fail(order.id, IN_SERVICE_FAILURE, tx);
        return { kind: 'in_service' as const, holder };
      }

      const createdAt = new Date();
      const id = await this.numbers.nextId(tx);
      const secret = newWebhookSecret();
      const sealed = this.secrets.seal(secret, secretContext(id));
      const number = await this.numbers.insert(tx, {
        id,
        account_id: order.account_id,
        phone_number: phoneNumber,
        business_phone: order.business_phone,
        area_code: order.area_code,
        webhook_url: order.webhook_url,
        webhook_events: order.webhook_events,
        max_call_minutes: order.max_call_minutes,
        webhook_secret_key_id: sealed.keyId,
        webhook_secret_ciphertext: sealed.ciphertext,
        next_charge_at: this.charging.secondMonthStart(createdAt),
        created_at: createdAt,
      });
      // The hold becomes the charge. Step 1 guaranteed it against every other order; only talk time billed in
      // between could have lowered the balance, and a call already taken is billed regardless.
      await this.ledger.post(tx, {
        accountId: order.account_id,
        kind: 'number_month',
        reference: this.charging.firstMonthReference(id),
        amountMillicents: -NUMBER_MONTHLY_PRICE_MILLICENTS,
        description: `${formatNumberId(id)} (${phoneNumber}) month 1, from ${formatUtcTime(createdAt)}`,
      });
      await this.orders.complete(tx, order.id, id);
      await this.agents.recordFor(tx, number, agent, cause);
      // The tenure begins at created_at: the simulator's default call start is judged against it (ADR 0121).
      await this.lifecycle.publish(tx, NumberProvisionedEvent, number, account, cause, createdAt);
      return { kind: 'created' as const, number, secret };
    }, LOCKING_TX);
  }

  /**
   * A purchase refused because its phone number is in service on another number: the order has failed, nothing was
   * charged. The number bought under this order (and only it: never the holder's) goes back to the provider, so a
   * retry with the same Idempotency-Key buys another; if the provider cannot take it now, reconciliation releases
   * it as the stray of a failed order (ADR 0011). Logged as an error: a provider sold a number twice.
   */
  private async refuseInService(
    order: OrderRecord,
    phoneNumber: string,
    holder: InServiceHolder | null,
  ): Promise<ServiceError> {
    const released = await this.provider
      .releaseNumber(phoneNumber, { livemode: !isTestAccount(order.account_id), orderRef: order.id })
      .then(
        () => true,
        (err: unknown) => {
          this.logger.warn(
            { err, order_id: order.id, phone_number: phoneNumber },
            'giving back a number already in service failed; reconciliation will release it',
          );
          return false;
        },
      );
    this.logger.error(
      {
        order_id: order.id,
        account_id: order.account_id,
        phone_number: phoneNumber,
        held_by_number_id: holder ? formatNumberId(holder.id) : null,
        held_by_account_id: holder?.account_id ?? null,
        given_back_to_provider: released,
      },
      'provider sold a phone number already in service on another number: purchase refused, nothing charged',
    );
    return new ServiceError(
      'provider_unavailable',
      'The telephony provider sold a number that is already in service; it was given back and nothing was charged. Retry (with the same Idempotency-Key) for another number.',
    );
  }

  /**
   * The first answer again, for a retry with the same Idempotency-Key: nothing is bought or charged. Only within
   * 24 hours of the purchase, as the gateway keeps answers: the secret is not handed out again for ever to whoever
   * holds an old key (docs/adr/0056-idempotency-key-on-every-public-write.md).
   */
  private async replay(numberId: bigint): Promise<NumberCreated> {
    const number = await this.numbers.find(numberId);
    if (!number) throw new Error(`order refers to a missing number ${numberId}`);
    if (number.created_at.getTime() <= Date.now() - IDEMPOTENCY_KEY_RETENTION_MS) {
      throw new ServiceError(
        'idempotency_key_expired',
        `This Idempotency-Key provisioned ${formatNumberId(number.id)} more than 24 hours ago; its answer, with the webhook secret, is no longer returned. Use a new key for a new number.`,
      );
    }
    const secret = this.secrets.open(
      { keyId: number.webhook_secret_key_id, ciphertext: number.webhook_secret_ciphertext },
      secretContext(number.id),
    );
    return { ...toNumberView(number), webhook_secret: secret };
  }
}

/**
 * The provisioning limits, in order, judged on a `ProvisioningStanding` (by the pre-check and again under the
 * account's lock): the balance less what pending orders hold must cover $5 (402), the numbers held and on order
 * must stay under the account's limit, and the numbers provisioned in the rolling hour and on order under the
 * velocity limit (429). Null when all pass.
 */
export function provisioningRefusal(standing: ProvisioningStanding): ServiceError | null {
  const { holds } = standing;
  if (standing.balance_millicents - holds.millicents < NUMBER_MONTHLY_PRICE_MILLICENTS) {
    return new ServiceError('insufficient_balance', 'The balance must be at least $5.00 to provision a number.');
  }
  if (standing.held + holds.count >= standing.number_limit) {
    return new ServiceError(
      'number_limit',
      `The account already has ${standing.number_limit} active numbers, its limit.`,
    );
  }
  if (standing.recent + holds.count >= VELOCITY_LIMIT) {
    return new ServiceError(
      'provision_velocity',
      `At most ${VELOCITY_LIMIT} numbers can be provisioned per hour; retry later.`,
    );
  }
  return null;
}

/** The request as the Idempotency-Key is bound to it: the body's fields, absent ones as null. */
export function fingerprintOf(command: ProvisionNumberCommand): string {
  const body: unknown[] = [command.business_phone, command.area_code ?? null, command.webhook_url ?? null];
  // Only when sent, so a key used before webhook_events (or max_call_minutes) existed keeps its fingerprint.
  if (command.webhook_events !== undefined) body.push(storedWebhookEvents(command.webhook_events));
  if (command.max_call_minutes !== undefined) body.push({ max_call_minutes: command.max_call_minutes });
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/**
 * Whether an error is the partial unique index `numbers_phone_number_in_service_key` refusing a second number in
 * service with one phone number (Prisma's P2002 names the index's column).
 */
export function isInServiceViolation(error: unknown): boolean {
  const { code, meta } = (error ?? {}) as { code?: unknown; meta?: unknown };
  return code === 'P2002' && JSON.stringify(meta ?? null).includes('phone_number');
}
