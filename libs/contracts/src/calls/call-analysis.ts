import { ApiProperty } from '../common/api-property';
import type { AnalysisFieldDefinition } from '../numbers/analysis-field.dto';

/** The caller's sentiment as the agent judged it; `unknown` when it gave none. */
export const CALL_SENTIMENTS = ['positive', 'neutral', 'negative', 'unknown'] as const;
export type CallSentiment = (typeof CALL_SENTIMENTS)[number];

/** The longest summary kept; a longer one is cut at this length (the summary is prose, not a value of a type). */
export const MAX_CALL_SUMMARY_LENGTH = 5_000;
/** The longest `string` value of a custom field kept; a longer one does not fit and is dropped. */
export const MAX_CUSTOM_STRING_LENGTH = 2_000;

/** A custom field's value, as its declared type says. */
export type CustomAnalysisValue = string | number | boolean;

/** `Call.analysis`: what the agent concluded after the call (docs/call-analysis.md). */
export class CallAnalysisView {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'The caller ordered a large margherita for pickup at 7pm.',
    description: "The agent's summary of the call; null when it gave none.",
  })
  summary: string | null;

  @ApiProperty({ enum: CALL_SENTIMENTS, description: "The caller's sentiment; `unknown` when the agent gave none." })
  sentiment: CallSentiment;

  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'Whether the agent judged the call successful; null when it did not say.',
  })
  successful: boolean | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    example: { order_total: 23.5, pickup: true },
    description:
      "The values of the number's declared `analysis_fields` the agent filled in, each of its declared type; a field " +
      'the agent left out, or gave a value that does not fit its type, is absent.',
  })
  custom: Record<string, CustomAnalysisValue>;
}

/** The analysis of a call the agent said nothing about. */
export const EMPTY_CALL_ANALYSIS: Readonly<CallAnalysisView> = Object.freeze({
  summary: null,
  sentiment: 'unknown',
  successful: null,
  custom: Object.freeze({}),
});

/** A custom value that was not kept, and why (for the log). */
export interface DroppedAnalysisValue {
  name: string;
  reason: 'undeclared' | 'wrong_type' | 'not_a_choice' | 'too_long';
}

/**
 * The custom values that fit the declared fields, each as its declared type; everything else is dropped (and said
 * why), never stored as something else. A null or absent value is neither kept nor dropped: the agent left it out.
 */
export function fitCustomAnalysis(
  fields: readonly AnalysisFieldDefinition[],
  values: Record<string, unknown>,
): { custom: Record<string, CustomAnalysisValue>; dropped: DroppedAnalysisValue[] } {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const custom: Record<string, CustomAnalysisValue> = {};
  const dropped: DroppedAnalysisValue[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined) continue;
    const field = byName.get(name);
    if (!field) {
      dropped.push({ name, reason: 'undeclared' });
      continue;
    }
    const fitted = fitValue(field, value);
    if (typeof fitted === 'object') dropped.push({ name, reason: fitted.reason });
    else custom[name] = fitted;
  }
  return { custom, dropped };
}

function fitValue(
  field: AnalysisFieldDefinition,
  value: unknown,
): CustomAnalysisValue | { reason: DroppedAnalysisValue['reason'] } {
  switch (field.type) {
    case 'string':
      if (typeof value !== 'string') return { reason: 'wrong_type' };
      return value.length > MAX_CUSTOM_STRING_LENGTH ? { reason: 'too_long' } : value;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : { reason: 'wrong_type' };
    case 'boolean':
      return typeof value === 'boolean' ? value : { reason: 'wrong_type' };
    case 'enum':
      if (typeof value !== 'string') return { reason: 'wrong_type' };
      return (field.choices ?? []).includes(value) ? value : { reason: 'not_a_choice' };
  }
}

/** A sentiment word from an agent platform (Retell says `Positive`, ...) as ours; anything else is `unknown`. */
export function sentimentOf(value: unknown): CallSentiment {
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (CALL_SENTIMENTS as readonly string[]).includes(word) ? (word as CallSentiment) : 'unknown';
}

/** A summary as kept: trimmed, cut at `MAX_CALL_SUMMARY_LENGTH`, null when empty or not text. */
export function summaryOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, MAX_CALL_SUMMARY_LENGTH) : null;
}
