import { Injectable } from '@nestjs/common';
import type { LinkPhoneLineCommand, PhoneLineView, UnlinkPhoneLineCommand } from '@switchboard/contracts';
import { requireAccount, type RpcContext } from '@switchboard/messaging';
import { LocationsService } from '../locations/locations.service';
import { PhoneLinesRepository } from './phone-lines.repository';

/**
 * A number's lost-and-found line (docs/adr/0079). The location rule is checked here, where locations live (404
 * location_not_found for another account's, or one without lost-and-found); that the number is the account's
 * is numbers-billing's to say, and the gateway asks it before forwarding.
 */
@Injectable()
export class PhoneLinesService {
  constructor(
    private readonly locations: LocationsService,
    private readonly lines: PhoneLinesRepository,
  ) {}

  async link(command: LinkPhoneLineCommand, ctx: RpcContext): Promise<PhoneLineView> {
    const accountId = requireAccount(ctx);
    const location = await this.locations.require(accountId, command.location_id);
    const line = await this.lines.link({
      number_id: command.number_id,
      account_id: accountId,
      location_id: location.id,
    });
    return { number_id: line.number_id, location_id: line.location_id };
  }

  async unlink(command: UnlinkPhoneLineCommand, ctx: RpcContext): Promise<PhoneLineView> {
    await this.lines.unlink(requireAccount(ctx), command.number_id);
    return { number_id: command.number_id, location_id: null };
  }

  async get(command: UnlinkPhoneLineCommand, ctx: RpcContext): Promise<PhoneLineView> {
    const line = await this.lines.find(requireAccount(ctx), command.number_id);
    return { number_id: command.number_id, location_id: line?.location_id ?? null };
  }
}
