import { Injectable } from '@nestjs/common';
import type { EmailList } from '@switchboard/contracts';
import { GatewayPrisma } from '../prisma/gateway-prisma';
import { EmailPort, type EmailMessage } from './email.port';

/** Newest first, at most this many: an operator reads the last few messages to one address. */
const LIST_LIMIT = 100;

/**
 * Sends nothing: stores each message in the gateway's database, where `GET /admin/email?to=` reads it (like the
 * simulated SMS provider's `GET /admin/sms`). Messages hold invite links, which are secrets: the adapter never logs
 * them, and only the operator API (bearer token, 127.0.0.1 by default) reads them back.
 */
@Injectable()
export class SimulatedEmailAdapter extends EmailPort {
  constructor(private readonly prisma: GatewayPrisma) {
    super();
  }

  async send(message: EmailMessage): Promise<void> {
    await this.prisma.simulatedEmail.create({
      data: { to: message.to.toLowerCase(), subject: message.subject, body: message.body },
    });
  }

  async sentTo(to: string): Promise<EmailList> {
    const rows = await this.prisma.simulatedEmail.findMany({
      where: { to: to.toLowerCase() },
      orderBy: [{ sent_at: 'desc' }, { id: 'desc' }],
      take: LIST_LIMIT,
    });
    return {
      data: rows.map((row) => ({
        to: row.to,
        subject: row.subject,
        body: row.body,
        sent_at: row.sent_at.toISOString(),
      })),
    };
  }
}
