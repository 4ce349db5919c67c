import { Injectable } from '@nestjs/common';
import type { SmsView } from '@switchboard/contracts';
import { LostfoundPrisma } from '../prisma/lostfound-prisma';
import type { SmsSender, TextMessage } from './sms.port';

/** How many texts `GET /admin/sms` answers at most (newest first). */
export const MAX_LISTED_TEXTS = 1000;

/**
 * The simulated SMS provider: a text is "sent" by keeping it in lostfound's database, where the operator API
 * reads it back (`GET /admin/sms?to=`). Nothing leaves the machine.
 */
@Injectable()
export class SimulatedSmsAdapter implements SmsSender {
  constructor(private readonly prisma: LostfoundPrisma) {}

  async send(message: TextMessage): Promise<void> {
    await this.prisma.simulatedSms.create({ data: { to: message.to, body: message.body } });
  }

  async sentTo(to: string): Promise<SmsView[]> {
    const texts = await this.prisma.simulatedSms.findMany({
      where: { to },
      orderBy: [{ sent_at: 'desc' }, { id: 'desc' }],
      take: MAX_LISTED_TEXTS,
    });
    return texts.map((text) => ({ to: text.to, body: text.body, sent_at: text.sent_at.toISOString() }));
  }
}
