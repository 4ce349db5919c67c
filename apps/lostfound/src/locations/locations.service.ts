import { Injectable } from '@nestjs/common';
import { DEFAULT_SMS_COUNTRIES, ServiceError, type CreateLocationCommand, type LocationView } from '@switchboard/contracts';
import { isStoredId } from '../common/scope';
import { LocationsRepository, type LocationRecord } from './locations.repository';

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
    });
    return { id: location.id, name: location.name, lostfound_enabled: location.lostfound_enabled, sms_countries: location.sms_countries };
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
}
