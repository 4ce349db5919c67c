import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  PhoneLinesRpc,
  type LinkPhoneLineCommand,
  type PhoneLineView,
  type UnlinkPhoneLineCommand,
} from '@switchboard/contracts';
import { Caller, RpcPattern, type RpcContext } from '@switchboard/messaging';
import { PhoneLinesService } from './phone-lines.service';

/** `/lostfound/phone-lines/{number_id}`, forwarded by the gateway once numbers-billing said the number is the account's. */
@Controller()
export class PhoneLinesNatsController {
  constructor(private readonly lines: PhoneLinesService) {}

  @RpcPattern(PhoneLinesRpc.link)
  link(@Payload() request: LinkPhoneLineCommand, @Caller() ctx: RpcContext): Promise<PhoneLineView> {
    return this.lines.link(request, ctx);
  }

  @RpcPattern(PhoneLinesRpc.unlink)
  unlink(@Payload() request: UnlinkPhoneLineCommand, @Caller() ctx: RpcContext): Promise<PhoneLineView> {
    return this.lines.unlink(request, ctx);
  }

  @RpcPattern(PhoneLinesRpc.get)
  get(@Payload() request: UnlinkPhoneLineCommand, @Caller() ctx: RpcContext): Promise<PhoneLineView> {
    return this.lines.get(request, ctx);
  }
}
