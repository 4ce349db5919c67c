import { Injectable } from '@nestjs/common';
import {
  PhoneLinesRpc,
  type LinkPhoneLineCommand,
  type PhoneLineView,
  type UnlinkPhoneLineCommand,
} from '@switchboard/contracts';
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { PhoneLinesService } from './phone-lines.service';

/** `/lostfound/phone-lines/{number_id}`, forwarded by the gateway once numbers-billing said the number is the account's. */
@Injectable()
export class PhoneLinesNatsController {
  constructor(private readonly lines: PhoneLinesService) {}

  @RpcHandler(PhoneLinesRpc.link)
  link(request: LinkPhoneLineCommand, ctx: RpcContext): Promise<PhoneLineView> {
    return this.lines.link(request, ctx);
  }

  @RpcHandler(PhoneLinesRpc.unlink)
  unlink(request: UnlinkPhoneLineCommand, ctx: RpcContext): Promise<PhoneLineView> {
    return this.lines.unlink(request, ctx);
  }

  @RpcHandler(PhoneLinesRpc.get)
  get(request: UnlinkPhoneLineCommand, ctx: RpcContext): Promise<PhoneLineView> {
    return this.lines.get(request, ctx);
  }
}
