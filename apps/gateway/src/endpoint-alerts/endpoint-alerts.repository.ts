import { Injectable } from '@nestjs/common';
import { GatewayPrisma } from '../prisma/gateway-prisma';

/** The owners of an account and the mails already sent per `webhook.endpoint_disabled` event. */
@Injectable()
export class EndpointAlertsRepository {
  constructor(private readonly prisma: GatewayPrisma) {}

  /** The addresses of the account's console users with the role owner, oldest first. */
  async ownerEmails(accountId: string): Promise<string[]> {
    const rows = await this.prisma
      .$kysely()
      .selectFrom('console_users')
      .select('email')
      .where('account_id', '=', accountId)
      .where('role', '=', 'owner')
      .orderBy('created_at', 'asc')
      .execute();
    return rows.map((row) => row.email);
  }

  /** Claims the mail of one event to one address: true the first time only (a redelivery finds the row). */
  async claim(eventId: string, recipient: string): Promise<boolean> {
    const written = await this.prisma
      .$kysely()
      .insertInto('endpoint_alert_mails')
      .values({ event_id: eventId, recipient })
      .onConflict((conflict) => conflict.columns(['event_id', 'recipient']).doNothing())
      .executeTakeFirst();
    return written.numInsertedOrUpdatedRows === 1n;
  }

  /** Gives a claim back after the mail could not be sent, so the redelivered event tries again. */
  async release(eventId: string, recipient: string): Promise<void> {
    await this.prisma
      .$kysely()
      .deleteFrom('endpoint_alert_mails')
      .where('event_id', '=', eventId)
      .where('recipient', '=', recipient)
      .execute();
  }
}
