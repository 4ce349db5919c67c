import { Injectable } from '@nestjs/common';
import { LostfoundPrisma } from '../prisma/lostfound-prisma';

export interface LocationRecord {
  id: number;
  account_id: string;
  name: string;
  lostfound_enabled: boolean;
}

@Injectable()
export class LocationsRepository {
  constructor(private readonly prisma: LostfoundPrisma) {}

  create(location: { account_id: string; name: string; lostfound_enabled: boolean }): Promise<LocationRecord> {
    return this.prisma.location.create({ data: location });
  }

  /** The location when it belongs to the account and runs lost-and-found; null otherwise. */
  findEnabled(accountId: string, id: number): Promise<LocationRecord | null> {
    return this.prisma.location.findFirst({ where: { id, account_id: accountId, lostfound_enabled: true } });
  }
}
