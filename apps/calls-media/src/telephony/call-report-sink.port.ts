import type { ProviderCallReport } from './provider-call-report';

/**
 * Where a provider adapter hands each call report it receives: call-reports' `CallReportsService.receive`, the use
 * case every adapter calls. call-reports imports telephony (the report's shape), so telephony declares what it needs
 * here and the module binds it: the two folders do not import each other in a circle.
 */
export interface CallReportSink {
  receive(report: ProviderCallReport, options?: { requestId?: string; settleWithinMs?: number }): Promise<unknown>;
}

export const CALL_REPORT_SINK = Symbol('CALL_REPORT_SINK');
