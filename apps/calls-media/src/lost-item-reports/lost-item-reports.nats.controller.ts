import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  LostItemReportRpc,
  ServiceError,
  type LostItemReportQuery,
  type LostItemReportView,
} from '@switchboard/contracts';
import { RpcPattern } from '@switchboard/messaging';
import { LostItemReportsRepository } from './lost-item-reports.repository';

/**
 * `calls.v2.lost-item-report.get`, for lostfound only (the bus grants refuse it to the gateway): a call's lost-item
 * report with the caller's phone and name, which `call.lost_item_reported` leaves out (docs/adr/0079). Another
 * account's call, or a call without a report, is 404 not_found.
 */
@Controller()
export class LostItemReportsNatsController {
  constructor(private readonly reports: LostItemReportsRepository) {}

  @RpcPattern(LostItemReportRpc)
  async get(@Payload() request: LostItemReportQuery): Promise<LostItemReportView> {
    const report = await this.reports.find(request.call_sid, request.account_id);
    if (!report) throw new ServiceError('not_found', 'No lost-item report for that call.');
    return report;
  }
}
