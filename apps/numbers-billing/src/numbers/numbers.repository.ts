import { Injectable } from '@nestjs/common';
import { prebuiltStatement } from '@switchboard/persistence';
import { sql, type Selectable } from 'kysely';
import type { PhoneNumber } from '../generated/kysely/database';
import { NumbersBillingPrisma, statements, type Tx } from '../prisma/numbers-billing-prisma';
import { LIST_COLUMNS, NUMBER_COLUMNS, type NumberListRow, type NumberRecord } from './number-record';

/** Sort key of the list: active first, then past_due, then released. */
const STATUS_RANK = sql<number>`CASE status WHEN 'active' THEN 0 WHEN 'past_due' THEN 1 ELSE 2 END`;

/**
 * The statement behind every `GET /v1/numbers` page (exported for the benchmark's floor, tools/bench: ADR 0099).
 */
export function numbersPageStatement(accountId: string, limit: number, after?: { rank: number; id: bigint }) {
  const list = statements.selectFrom('numbers').select(LIST_COLUMNS).where('account_id', '=', accountId);
  return (
    after
      ? list.where(
          sql<boolean>`(${STATUS_RANK} > ${after.rank} OR (${STATUS_RANK} = ${after.rank} AND id < ${after.id.toString()}::bigint))`,
        )
      : list
  )
    .orderBy(STATUS_RANK)
    .orderBy('id', 'desc')
    .limit(limit);
}

/** The first page's statement (no cursor: most requests), built once. */
const numbersFirstPage = prebuiltStatement(
  (accountId: string, limit: number) => numbersPageStatement(accountId, limit),
  2,
);

/** `tenuresOf`'s statement, built once: it runs for every call report. */
const tenuresOfStatement = prebuiltStatement(
  (phoneNumber: string) =>
    statements
      .selectFrom('numbers')
      .select(['status', 'created_at', 'released_at'])
      .where('phone_number', '=', phoneNumber),
  1,
);

export type WebhookTargetRow = Pick<
  NumberRecord,
  'id' | 'webhook_url' | 'webhook_events' | 'webhook_secret_key_id' | 'webhook_secret_ciphertext'
> &
  PreviousSecretColumns;

/** The previous webhook secret and the end of its overlap (ADR 0128), read with the target. */
export type PreviousSecretColumns = Pick<
  Selectable<PhoneNumber>,
  'previous_webhook_secret_key_id' | 'previous_webhook_secret_ciphertext' | 'previous_webhook_secret_expires_at'
>;

/** The columns a webhook-secret rotation writes. */
export type SecretRotation = Pick<
  Selectable<PhoneNumber>,
  | 'webhook_secret_key_id'
  | 'webhook_secret_ciphertext'
  | 'previous_webhook_secret_key_id'
  | 'previous_webhook_secret_ciphertext'
  | 'previous_webhook_secret_expires_at'
  | 'webhook_secret_rotation_key'
  | 'webhook_secret_rotated_at'
>;

export type NewNumber = Pick<
  NumberRecord,
  | 'id'
  | 'account_id'
  | 'phone_number'
  | 'business_phone'
  | 'area_code'
  | 'webhook_url'
  | 'webhook_events'
  | 'max_call_minutes'
  | 'webhook_secret_key_id'
  | 'webhook_secret_ciphertext'
  | 'next_charge_at'
  | 'created_at'
>;

@Injectable()
export class NumbersRepository {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  /** The next `<n>` of `num_<n>`, from the table's sequence (taken before insert so the secret can be bound to it). */
  async nextId(tx: Tx): Promise<bigint> {
    const {
      rows: [row],
    } = await sql<Pick<NumberRecord, 'id'>>`SELECT nextval(pg_get_serial_sequence('numbers', 'id')) AS id`.execute(
      tx.$kysely(),
    );
    return row.id;
  }

  async insert(tx: Tx, number: NewNumber): Promise<NumberRecord> {
    return tx.phoneNumber.create({ data: { ...number, status: 'active', periods_charged: 1, version: 1n } });
  }

  /**
   * The number that holds `phoneNumber` now (not released), if any: at most one, by the partial unique index
   * `numbers_phone_number_in_service_key` (docs/adr/0121-calls-and-recordings.md).
   */
  async findInService(tx: Tx, phoneNumber: string): Promise<Pick<NumberRecord, 'id' | 'account_id'> | null> {
    const rows = await tx
      .$kysely()
      .selectFrom('numbers')
      .select(['id', 'account_id'])
      .where('phone_number', '=', phoneNumber)
      .where('status', '<>', 'released')
      .execute();
    return rows[0] ?? null;
  }

  find(id: bigint): Promise<NumberRecord | null> {
    return this.prisma.phoneNumber.findUnique({ where: { id } });
  }

  /** Locks one of the account's numbers for the rest of the transaction; null when it is not the account's. */
  async lockOwned(tx: Tx, accountId: string, id: bigint): Promise<NumberRecord | null> {
    const rows = await tx
      .$kysely()
      .selectFrom('numbers')
      .select(NUMBER_COLUMNS)
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .forUpdate()
      .execute();
    return rows[0] ?? null;
  }

  async lock(tx: Tx, id: bigint): Promise<NumberRecord | null> {
    const rows = await tx
      .$kysely()
      .selectFrom('numbers')
      .select(NUMBER_COLUMNS)
      .where('id', '=', id)
      .forUpdate()
      .execute();
    return rows[0] ?? null;
  }

  /** The account's numbers in `statuses`, locked, oldest first. */
  async lockAccountNumbers(tx: Tx, accountId: string, statuses: string[]): Promise<NumberRecord[]> {
    return tx
      .$kysely()
      .selectFrom('numbers')
      .select(NUMBER_COLUMNS)
      .where('account_id', '=', accountId)
      .where(sql<boolean>`status = ANY(${statuses}::text[])`)
      .orderBy('id')
      .forUpdate()
      .execute();
  }

  async update(
    tx: Tx,
    id: bigint,
    changes: Partial<
      Pick<
        NumberRecord,
        | 'status'
        | 'periods_charged'
        | 'next_charge_at'
        | 'past_due_since'
        | 'released_at'
        | 'webhook_url'
        | 'webhook_events'
        | 'business_phone'
        | 'max_call_minutes'
      >
    >,
  ): Promise<NumberRecord> {
    return tx.phoneNumber.update({ where: { id }, data: { ...changes, version: { increment: 1n } } });
  }

  /** Billing progress: not part of the published state, so no new version. */
  async advancePeriod(tx: Tx, id: bigint, periodsCharged: number, nextChargeAt: Date): Promise<NumberRecord> {
    return tx.phoneNumber.update({
      where: { id },
      data: { periods_charged: periodsCharged, next_charge_at: nextChargeAt },
    });
  }

  /** A new version without other changes (the published state changed through the account, e.g. answering). */
  async bumpVersion(tx: Tx, id: bigint): Promise<NumberRecord> {
    return tx.phoneNumber.update({ where: { id }, data: { version: { increment: 1n } } });
  }

  /** One of the account's numbers as the list shows it; null for an unknown id and another account's alike. */
  findOwned(accountId: string, id: bigint): Promise<NumberListRow | null> {
    return this.prisma.phoneNumber.findFirst({
      where: { id, account_id: accountId },
      select: {
        id: true,
        phone_number: true,
        business_phone: true,
        status: true,
        webhook_url: true,
        webhook_events: true,
        max_call_minutes: true,
        created_at: true,
      },
    });
  }

  /**
   * The account's active numbers with a webhook_url that opted in to `eventType` (`webhook_events`), in id order:
   * where an account-level event goes (docs/adr/0131-auto-top-up-and-stripe.md).
   */
  async optedIn(tx: Tx, accountId: string, eventType: string): Promise<bigint[]> {
    const rows = await tx.phoneNumber.findMany({
      where: {
        account_id: accountId,
        status: 'active',
        webhook_url: { not: null },
        webhook_events: { has: eventType },
      },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    return rows.map((row) => row.id);
  }

  /**
   * Every number that ever had this phone number (a released one may be sold again), with when it was provisioned and
   * released. A plain statement: asked for every call report.
   */
  tenuresOf(phoneNumber: string): Promise<Pick<NumberRecord, 'status' | 'created_at' | 'released_at'>[]> {
    return this.prisma
      .$kysely()
      .executeQuery(tenuresOfStatement(phoneNumber))
      .then(({ rows }) => rows);
  }

  /** Where a number's events go: the columns the webhook target needs, for every delivery. */
  async findWebhookTarget(id: bigint): Promise<WebhookTargetRow | null> {
    const [row] = await this.prisma
      .$kysely()
      .selectFrom('numbers')
      .select([
        'id',
        'webhook_url',
        'webhook_events',
        'webhook_secret_key_id',
        'webhook_secret_ciphertext',
        'previous_webhook_secret_key_id',
        'previous_webhook_secret_ciphertext',
        'previous_webhook_secret_expires_at',
      ])
      .where('id', '=', sql<bigint>`${id.toString()}`)
      .execute();
    return row ?? null;
  }

  /** Page of the account's numbers: active first, then past_due, then released; newest first within each. */
  async page(accountId: string, limit: number, after?: { rank: number; id: bigint }): Promise<NumberListRow[]> {
    return after
      ? this.prisma
          .$kysely()
          .executeQuery(numbersPageStatement(accountId, limit, after))
          .then(({ rows }) => rows)
      : this.prisma
          .$kysely()
          .executeQuery(numbersFirstPage(accountId, limit))
          .then(({ rows }) => rows);
  }

  /** Numbers that count against the limit (active and past_due). */
  countHeld(tx: Tx, accountId: string): Promise<number> {
    return tx.phoneNumber.count({ where: { account_id: accountId, status: { in: ['active', 'past_due'] } } });
  }

  /** Numbers provisioned since `since` (whatever became of them): the velocity limit counts them. */
  countProvisionedSince(tx: Tx, accountId: string, since: Date): Promise<number> {
    return tx.phoneNumber.count({ where: { account_id: accountId, created_at: { gte: since } } });
  }

  async setSealedSecret(
    id: bigint,
    expectedKeyId: string,
    sealed: { keyId: string; ciphertext: string },
  ): Promise<boolean> {
    const result = await this.prisma.phoneNumber.updateMany({
      where: { id, webhook_secret_key_id: expectedKeyId },
      data: { webhook_secret_key_id: sealed.keyId, webhook_secret_ciphertext: sealed.ciphertext },
    });
    return result.count === 1;
  }

  /** The number's last webhook-secret rotation (its idempotency key and when), and the previous secret's expiry. */
  lastSecretRotation(
    tx: Tx,
    id: bigint,
  ): Promise<
    Pick<
      Selectable<PhoneNumber>,
      'webhook_secret_rotation_key' | 'webhook_secret_rotated_at' | 'previous_webhook_secret_expires_at'
    >
  > {
    return tx.phoneNumber.findUniqueOrThrow({
      where: { id },
      select: {
        webhook_secret_rotation_key: true,
        webhook_secret_rotated_at: true,
        previous_webhook_secret_expires_at: true,
      },
    });
  }

  /**
   * Writes a rotated webhook secret: the new one, the previous one sealed (or none) and the rotation's key and time.
   * A new version of the number: the rotation is published as `number.updated` (ADR 0075).
   */
  async saveSecretRotation(tx: Tx, id: bigint, rotation: SecretRotation): Promise<NumberRecord> {
    return tx.phoneNumber.update({ where: { id }, data: { ...rotation, version: { increment: 1n } } });
  }

  /** Numbers whose secret is sealed with another key than `keyId` (to be sealed again after a rotation). */
  findSealedWithOtherKey(keyId: string, take: number): Promise<NumberRecord[]> {
    return this.prisma.phoneNumber.findMany({
      where: { webhook_secret_key_id: { not: keyId } },
      take,
      orderBy: { id: 'asc' },
    });
  }

  /** Numbers not released that have a webhook, by id after `afterId`: the start-up normalisation walks them. */
  findWithWebhookAfter(afterId: bigint, take: number): Promise<{ id: bigint; webhook_url: string | null }[]> {
    return this.prisma.phoneNumber.findMany({
      where: { id: { gt: afterId }, webhook_url: { not: null }, status: { not: 'released' } },
      select: { id: true, webhook_url: true },
      orderBy: { id: 'asc' },
      take,
    });
  }

  /** Active numbers whose next charge is due at `now`, by id: the billing run charges them. */
  findDue(now: Date): Promise<Pick<NumberRecord, 'id' | 'account_id'>[]> {
    return this.prisma.phoneNumber.findMany({
      where: { status: 'active', next_charge_at: { lte: now } },
      select: { id: true, account_id: true },
      orderBy: { id: 'asc' },
    });
  }

  /** Past-due numbers, by id: the billing run settles or releases them. */
  findPastDue(): Promise<Pick<NumberRecord, 'id' | 'account_id'>[]> {
    return this.prisma.phoneNumber.findMany({
      where: { status: 'past_due' },
      select: { id: true, account_id: true },
      orderBy: { id: 'asc' },
    });
  }

  /** Released numbers the provider has not yet confirmed releasing. */
  findUnreleasedAtProvider(take: number): Promise<{ id: bigint; phone_number: string; account_id: string }[]> {
    return this.prisma.phoneNumber.findMany({
      where: { status: 'released', provider_released_at: null },
      select: { id: true, phone_number: true, account_id: true },
      take,
      orderBy: { id: 'asc' },
    });
  }

  async markReleasedAtProvider(id: bigint): Promise<void> {
    await this.prisma.phoneNumber.update({ where: { id }, data: { provider_released_at: new Date() } });
  }
}

export function statusRank(status: string): number {
  return status === 'active' ? 0 : status === 'past_due' ? 1 : 2;
}
