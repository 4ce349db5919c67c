import type { CallSentiment } from '@switchboard/contracts';

/**
 * What a telephony provider tells calls-media about a completed call, whichever provider it is. Each provider's
 * adapter (the simulated one behind the operator API; a real one's webhook controller) translates its own
 * format into this and hands it to `CallReportsService.receive`, the one way in (docs/adr/0121).
 */
export interface ProviderCallReport {
  /** The provider's id of the call; a report repeated by the provider carries the same one. */
  call_sid: string;
  /** The service number that was called (E.164). */
  to: string;
  caller: string;
  direction: string;
  status: string;
  outcome: string;
  duration_sec: number;
  started_at: Date;
  /** Null when the provider made no transcript. */
  transcript: ProviderTranscriptTurn[] | null;
  /** The audio, fetched by the adapter; null when the call was not recorded. */
  recording: ProviderRecording | null;
  /** What the agent gathered when the outcome is `lost_item_report` (docs/adr/0079); null otherwise. */
  lost_item?: ProviderLostItem | null;
  /**
   * The agent's post-call analysis as the provider gave it; `custom` is not yet checked against the number's declared
   * fields (that happens once the number is known: docs/call-analysis.md). Null or absent: none.
   */
  analysis?: ProviderCallAnalysis | null;
}

export interface ProviderCallAnalysis {
  summary: string | null;
  sentiment: CallSentiment;
  successful: boolean | null;
  /** Values by field name, unchecked. */
  custom: Record<string, unknown>;
}

export interface ProviderLostItem {
  category: string;
  description: string;
  color?: string;
  where_lost?: string;
  lost_at?: string;
  caller_name?: string;
}

/** A call's start as a provider reports it while the call goes on (docs/live-calls.md), before it is anyone's. */
export interface ProviderCallStart {
  call_sid: string;
  /** The service number that was called (E.164). */
  to: string;
  caller: string;
  direction: string;
  started_at: Date;
}

export interface ProviderTranscriptTurn {
  role: string;
  text: string;
}

/** The audio: its bytes, or, when the provider's recording came first, where it is stored already (ADR 0083). */
export type ProviderRecording =
  | { content_type: string; bytes: Uint8Array }
  | { content_type: string; stored: { key: string; size: number; etag: string } };
