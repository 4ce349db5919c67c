import { Injectable } from '@nestjs/common';
import { LostItemReportRpc, ServiceError, type LostItemReportQuery, type LostItemReportView } from '@switchboard/contracts';
import { RpcHandler } from '@switchboard/messaging';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';

/**
 * `calls.v2.lost-item-report.get`, for lostfound only (the bus grants refuse it to the gateway): a call's lost-item
 * report with the caller's phone and name, which `call.lost_item_reported` leaves out (docs/adr/0079). Another
 * account's call, or a call without a report, is 404 not_found.
 */
@Injectable()
export class LostItemReportsNatsController {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  @RpcHandler(LostItemReportRpc)
  async get(request: LostItemReportQuery): Promise<LostItemReportView> {
    const row = await this.prisma.lostItemReport.findFirst({ where: { call_sid: request.call_sid, account_id: request.account_id } });
    if (!row) throw new ServiceError('not_found', 'No lost-item report for that call.');
    return {
      call_sid: row.call_sid,
      number_id: row.number_id,
      caller: row.caller,
      caller_name: row.caller_name,
      category: row.category,
      description: row.description,
      color: row.color,
      where_lost: row.where_lost,
      lost_at: row.lost_at,
    };
  }
}
