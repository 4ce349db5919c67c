import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  ClaimantClaimFiled,
  ClaimantFileCommand,
  ClaimantLocationView,
  ClaimantSlugQuery,
} from '@switchboard/contracts';
import type { RpcContext } from '@switchboard/messaging';
import { CLAIMANT_CATEGORIES } from '../categories/category-vocabulary';
import { ClaimsService } from '../claims/claims.service';
import { LocationsService } from '../locations/locations.service';

/** Categories the claimant page offers: the vocabulary's, less the urgent ones (never taken as claims). */
export { CLAIMANT_CATEGORIES };

/** What a person reporting a lost child, person or medication on the public page is told. */
export function publicUrgentMessage(category: string): string {
  return (
    `A lost ${category} is urgent and cannot be reported on this page: call the venue now, ` +
    'or emergency services (911) if someone may be in danger.'
  );
}

/**
 * The claimant page's backend (docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md): no account, the location named by its
 * public slug. Same rules as `POST /lostfound/claims`; the answers say nothing about the venue's items, not even
 * whether one matches.
 */
@Injectable()
export class ClaimantService {
  constructor(
    private readonly locations: LocationsService,
    private readonly claims: ClaimsService,
  ) {}

  async location(query: ClaimantSlugQuery): Promise<ClaimantLocationView> {
    const location = await this.locations.requireBySlug(query.slug);
    return { name: location.name, categories: [...CLAIMANT_CATEGORIES] };
  }

  async file(command: ClaimantFileCommand, ctx: RpcContext): Promise<ClaimantClaimFiled> {
    const location = await this.locations.requireBySlug(command.slug);
    await this.claims.fileAt(
      location,
      {
        claimant_name: command.claimant_name,
        claimant_phone: command.claimant_phone,
        claimant_email: command.claimant_email,
        category: command.category,
        description: command.description,
        color: command.color,
        lost_area: command.lost_area,
        lost_date: command.lost_date,
      },
      { source: 'web', correlationId: ctx.requestId ?? randomUUID(), urgentMessage: publicUrgentMessage },
    );
    return {
      received: true,
      source: 'web',
      message: `Thank you: your claim is filed with ${location.name}. We will text you if a matching item is handed in.`,
    };
  }
}
