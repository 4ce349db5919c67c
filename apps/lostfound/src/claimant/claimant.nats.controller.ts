import { Injectable } from '@nestjs/common';
import {
  ClaimantRpc,
  type ClaimantClaimFiled,
  type ClaimantFileCommand,
  type ClaimantLocationView,
  type ClaimantSlugQuery,
} from '@switchboard/contracts';
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { ClaimantService } from './claimant.service';

/** The public claimant page's requests, forwarded by the gateway for no account (docs/adr/0078). */
@Injectable()
export class ClaimantNatsController {
  constructor(private readonly claimant: ClaimantService) {}

  @RpcHandler(ClaimantRpc.location)
  location(request: ClaimantSlugQuery): Promise<ClaimantLocationView> {
    return this.claimant.location(request);
  }

  @RpcHandler(ClaimantRpc.file)
  file(request: ClaimantFileCommand, ctx: RpcContext): Promise<ClaimantClaimFiled> {
    return this.claimant.file(request, ctx);
  }
}
