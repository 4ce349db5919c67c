import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  ClaimantRpc,
  type ClaimantClaimFiled,
  type ClaimantFileCommand,
  type ClaimantLocationView,
  type ClaimantSlugQuery,
} from '@switchboard/contracts';
import { Caller, RpcPattern, type RpcContext } from '@switchboard/messaging';
import { ClaimantService } from './claimant.service';

/** The public claimant page's requests, forwarded by the gateway for no account (docs/adr/0079). */
@Controller()
export class ClaimantNatsController {
  constructor(private readonly claimant: ClaimantService) {}

  @RpcPattern(ClaimantRpc.location)
  location(@Payload() request: ClaimantSlugQuery): Promise<ClaimantLocationView> {
    return this.claimant.location(request);
  }

  @RpcPattern(ClaimantRpc.file)
  file(@Payload() request: ClaimantFileCommand, @Caller() ctx: RpcContext): Promise<ClaimantClaimFiled> {
    return this.claimant.file(request, ctx);
  }
}
