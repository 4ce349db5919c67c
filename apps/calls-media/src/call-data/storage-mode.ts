import type { CallAnalysisView, CustomAnalysisValue, StorageMode } from '@switchboard/contracts';
import { redactPii } from '../redaction/pii-redaction';
import type { ProviderTranscriptTurn } from '../telephony/provider-call-report';

/** What of a call's words is stored: its transcript and its analysis. */
export interface CallContent {
  transcript: ProviderTranscriptTurn[] | null;
  analysis: CallAnalysisView;
}

/** Only `everything` stores the recording: `no_pii` and `metadata_only` never keep a caller's voice. */
export function keepsRecording(mode: StorageMode): boolean {
  return mode === 'everything';
}

/**
 * A call's words as the account's storage mode lets them be stored (docs/call-data.md): all of them (`everything`);
 * with PII replaced by `[redacted:<kind>]` in the turns, the summary and the custom text values (`no_pii`); or none,
 * the analysis flags aside (`metadata_only`: sentiment and success, no summary, no custom values, no transcript).
 * Applied before anything reaches the database, so the events and webhooks built from the stored call carry no more.
 */
export function contentToStore(mode: StorageMode, content: CallContent): CallContent {
  switch (mode) {
    case 'everything':
      return content;
    case 'no_pii':
      return {
        transcript: content.transcript?.map((turn) => ({ ...turn, text: redactPii(turn.text) })) ?? null,
        analysis: {
          ...content.analysis,
          summary: content.analysis.summary === null ? null : redactPii(content.analysis.summary),
          custom: Object.fromEntries(
            Object.entries(content.analysis.custom).map(([name, value]): [string, CustomAnalysisValue] => [
              name,
              typeof value === 'string' ? redactPii(value) : value,
            ]),
          ),
        },
      };
    case 'metadata_only':
      return {
        transcript: null,
        analysis: { ...content.analysis, summary: null, custom: {} },
      };
  }
}
