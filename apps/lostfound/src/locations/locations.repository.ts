import { Injectable } from '@nestjs/common';
import { LostfoundPrisma } from '../prisma/lostfound-prisma';

export interface LocationRecord {
  id: number;
  account_id: string;
  name: string;
  lostfound_enabled: boolean;
  /** Countries whose claimant phones may be texted (docs/adr/0053-lostfound-texting-limits.md). */
  sms_countries: string[];
}

const SELECTED = { id: true, account_id: true, name: true, lostfound_enabled: true, sms_countries: true } as const;

@Injectable()
export class LocationsRepository {
  constructor(private readonly prisma: LostfoundPrisma) {}

  create(location: Omit<LocationRecord, 'id'>): Promise<LocationRecord> {
    return this.prisma.location.create({ data: location, select: SELECTED });
  }

  /** The location when it belongs to the account and runs lost-and-found; null otherwise. */
  findEnabled(accountId: string, id: number): Promise<LocationRecord | null> {
    return this.prisma.location.findFirst({ where: { id, account_id: accountId, lostfound_enabled: true }, select: SELECTED });
  }
}
