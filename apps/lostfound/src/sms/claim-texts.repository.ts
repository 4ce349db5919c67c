import { Injectable } from '@nestjs/common';
import { LostfoundPrisma } from '../prisma/lostfound-prisma';

/**
 * The texts sent to claimants, kept per claim (claim_texts) so the desk can show what a claimant was told
 * (ClaimsRepository.findDetail reads them back). The simulated provider's log is per phone and operator-only
 * (docs/adr/0080); this one belongs to the claim's account.
 */
@Injectable()
export class ClaimTextsRepository {
  constructor(private readonly prisma: LostfoundPrisma) {}

  /** Records a text the provider took for a claim. */
  async recordSent(claimId: number, body: string): Promise<void> {
    await this.prisma.claimText.create({ data: { claim_id: claimId, body, status: 'sent' } });
  }
}
