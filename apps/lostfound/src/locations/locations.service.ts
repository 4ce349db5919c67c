import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  DEFAULT_HOLD_DAYS,
  DEFAULT_SMS_COUNTRIES,
  PUBLIC_SLUG_PATTERN,
  ServiceError,
  type CreateLocationCommand,
  type DeskLocationList,
  type LocationOfAccount,
  type LocationView,
  type UpdateLocationCommand,
} from '@switchboard/contracts';
import { CLAIMANT_CATEGORIES } from '../categories/category-vocabulary';
import { isStoredId } from '../common/scope';
import { LocationsRepository, type LocationRecord } from './locations.repository';

/** A claimant-page slug: 128 random bits, base64url (22 characters). docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md. */
export function newPublicSlug(): string {
  return randomBytes(16).toString('base64url');
}

@Injectable()
export class LocationsService {
  constructor(private readonly locations: LocationsRepository) {}

  /** Operator route: the gateway has checked that the account exists. */
  async create(command: CreateLocationCommand): Promise<LocationView> {
    const location = await this.locations.create({
      account_id: command.account_id,
      name: command.name.trim(),
      lostfound_enabled: command.lostfound_enabled ?? true,
      sms_countries: [...new Set(command.sms_countries ?? DEFAULT_SMS_COUNTRIES)],
      hold_days: command.hold_days ?? DEFAULT_HOLD_DAYS,
      public_slug: newPublicSlug(),
    });
    return toLocationView(location);
  }

  /** Operator route: lostfound_enabled and hold_days; 404 not_found for a location the account does not have. */
  async update(command: UpdateLocationCommand): Promise<LocationView> {
    const data: { lostfound_enabled?: boolean; hold_days?: number } = {};
    if (command.lostfound_enabled !== undefined) data.lostfound_enabled = command.lostfound_enabled;
    if (command.hold_days !== undefined) data.hold_days = command.hold_days;
    return toLocationView(
      this.found(
        isStoredId(command.location_id)
          ? await this.locations.update(command.account_id, command.location_id, data)
          : null,
      ),
    );
  }

  /** Operator route: a new claimant-page slug; the old one stops answering at once. */
  async rotateSlug(command: LocationOfAccount): Promise<LocationView> {
    const updated = isStoredId(command.location_id)
      ? await this.locations.update(command.account_id, command.location_id, { public_slug: newPublicSlug() })
      : null;
    return toLocationView(this.found(updated));
  }

  /** The console's desk: the account's locations that run lost-and-found (docs/adr/0080). */
  async listForAccount(accountId: string): Promise<DeskLocationList> {
    const locations = await this.locations.listEnabled(accountId);
    return {
      data: locations.map((l) => ({ id: l.id, name: l.name, hold_days: l.hold_days, public_slug: l.public_slug })),
      categories: [...CLAIMANT_CATEGORIES],
    };
  }

  /**
   * Every lost-and-found request starts here (spec part 5, rule 8): the location must be the account's and run
   * lost-and-found. A foreign, unknown or disabled location all get the same 404, so ids cannot be probed.
   */
  async require(accountId: string, locationId: number): Promise<LocationRecord> {
    const location = isStoredId(locationId) ? await this.locations.findEnabled(accountId, locationId) : null;
    if (!location) {
      throw new ServiceError('location_not_found', 'No location with that id runs lost-and-found for this account.');
    }
    return location;
  }

  /** The claimant page's location: an unknown slug and a location without lost-and-found get the same 404. */
  async requireBySlug(slug: string): Promise<LocationRecord> {
    const location =
      typeof slug === 'string' && PUBLIC_SLUG_PATTERN.test(slug) ? await this.locations.findEnabledBySlug(slug) : null;
    if (!location) throw new ServiceError('not_found', 'There is no lost-and-found page at this address.');
    return location;
  }

  private found(location: LocationRecord | null): LocationRecord {
    if (!location) throw new ServiceError('not_found', 'No location with that id for this account.');
    return location;
  }
}

export function toLocationView(location: LocationRecord): LocationView {
  return {
    id: location.id,
    name: location.name,
    lostfound_enabled: location.lostfound_enabled,
    sms_countries: location.sms_countries,
    hold_days: location.hold_days,
    public_slug: location.public_slug,
  };
}
