import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import type { Location } from '../generated/kysely/database';
import { LostfoundPrisma } from '../prisma/lostfound-prisma';

/** A location as the app reads it; `sms_countries`: whose claimant phones may be texted (docs/adr/0053). */
export type LocationRecord = Omit<Selectable<Location>, 'created_at'>;

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
