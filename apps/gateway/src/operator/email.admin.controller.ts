import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ListEmailQuery, type EmailList } from '@switchboard/contracts';
import { AdminTokenGuard } from '../auth';
import { SimulatedEmailAdapter } from '../email';

/** `GET /admin/email?to=`: the messages the simulated email adapter "sent" to one address, newest first. */
@Controller('admin/email')
@UseGuards(AdminTokenGuard)
export class EmailAdminController {
  constructor(private readonly email: SimulatedEmailAdapter) {}

  @Get()
  list(@Query() query: ListEmailQuery): Promise<EmailList> {
    return this.email.sentTo(query.to);
  }
}
