import type { ProviderCallReport, ProviderCallStart, ProviderTranscriptTurn } from './provider-call-report';

/**
 * Where a provider adapter hands each call report it receives: call-reports' `CallReportsService.receive`, the use
 * case every adapter calls. call-reports imports telephony (the report's shape), so telephony declares what it needs
 * here and the module binds it: the two folders do not import each other in a circle.
 */
export interface CallReportSink {
  receive(report: ProviderCallReport, options?: { requestId?: string; settleWithinMs?: number }): Promise<unknown>;
}

export const CALL_REPORT_SINK = Symbol('CALL_REPORT_SINK');

/**
 * Where a provider adapter hands what it hears of a call while it goes on (docs/live-calls.md): live-calls'
 * `LiveCallsService`, bound by the module, as the report sink is.
 */
export interface LiveCallSink {
  /** The call started: false when it was left alone (no owner answering, a repeat, or after its end). */
  started(start: ProviderCallStart, cause?: { requestId?: string }): Promise<boolean>;
  /** The transcript so far, from position `from` (0: every turn from the first); answers how many turns were new. */
  transcript(callSid: string, turns: readonly ProviderTranscriptTurn[], from?: number): Promise<number>;
}

export const LIVE_CALL_SINK = Symbol('LIVE_CALL_SINK');
