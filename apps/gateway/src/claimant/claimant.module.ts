import { Module } from '@nestjs/common';
import { RequestAuthRepository } from '../auth/request-auth.repository';
import { IdempotencyModule } from '../idempotency';
import { ClaimantGuard } from './claimant.guard';
import { ClaimantHttpController } from './claimant.http.controller';

/**
 * The claimant page's backend (`/claim/api/...`, docs/adr/0079) on the public port, outside `/v1`: no key, a limit
 * per client address (ClaimantGuard). A module of its own so each OpenAPI description includes it or not: the page
 * is the console's, so its routes are in the console's description (its typed client) and not in `/v1`'s.
 */
@Module({
  // IdempotencyModule: `@Idempotent()` on filing a claim, scoped by the client address ClaimantGuard counted.
  imports: [IdempotencyModule],
  controllers: [ClaimantHttpController],
  providers: [ClaimantGuard, RequestAuthRepository],
})
export class ClaimantModule {}
