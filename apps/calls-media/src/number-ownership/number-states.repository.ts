import { Injectable } from '@nestjs/common';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';
import type { NumberOwnershipState } from './attribution';

@Injectable()
export class NumberStatesRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  /** Keeps a state; one already kept (same number and version, redelivered) is ignored. */
  async add(state: NumberOwnershipState): Promise<void> {
    await this.prisma.numberState.createMany({ data: [state], skipDuplicates: true });
  }

  statesOf(phoneNumber: string): Promise<NumberOwnershipState[]> {
    return this.prisma.numberState.findMany({
      where: { phone_number: phoneNumber },
      select: { number_id: true, version: true, account_id: true, phone_number: true, status: true, answering: true, changed_at: true },
    });
  }
}
