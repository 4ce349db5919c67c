import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import type { Location } from '../generated/kysely/database';
import { LostfoundPrisma } from '../prisma/lostfound-prisma';

/** A location as the app reads it; `sms_countries`: whose claimant phones may be texted (docs/adr/0053). */
export type LocationRecord = Omit<Selectable<Location>, 'created_at'>;

const SELECTED = {
  id: true,
  account_id: true,
  name: true,
  lostfound_enabled: true,
  sms_countries: true,
  hold_days: true,
  public_slug: true,
} as const;

@Injectable()
export class LocationsRepository {
  constructor(private readonly prisma: LostfoundPrisma) {}

  create(location: Omit<LocationRecord, 'id'>): Promise<LocationRecord> {
    return this.prisma.location.create({ data: location, select: SELECTED });
  }

  /** The location when it belongs to the account and runs lost-and-found; null otherwise. */
  findEnabled(accountId: string, id: number): Promise<LocationRecord | null> {
    return this.prisma.location.findFirst({
      where: { id, account_id: accountId, lostfound_enabled: true },
      select: SELECTED,
    });
  }

  /** The account's locations that run lost-and-found, by name. */
  listEnabled(accountId: string): Promise<LocationRecord[]> {
    return this.prisma.location.findMany({
      where: { account_id: accountId, lostfound_enabled: true },
      select: SELECTED,
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
  }

  /** The location behind a claimant-page slug, when it runs lost-and-found; null otherwise. */
  findEnabledBySlug(slug: string): Promise<LocationRecord | null> {
    return this.prisma.location.findFirst({ where: { public_slug: slug, lostfound_enabled: true }, select: SELECTED });
  }

  /** Changes the account's location; null when it has none with that id. */
  async update(
    accountId: string,
    id: number,
    data: Partial<Pick<LocationRecord, 'lostfound_enabled' | 'hold_days' | 'public_slug'>>,
  ): Promise<LocationRecord | null> {
    const { count } = await this.prisma.location.updateMany({ where: { id, account_id: accountId }, data });
    if (count === 0) return null;
    return this.prisma.location.findUnique({ where: { id }, select: SELECTED });
  }
}
