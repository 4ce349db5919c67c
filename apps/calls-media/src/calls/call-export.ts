import type { CallView, ExportFormat, ExportInclude, TranscriptTurnView } from '@switchboard/contracts';

/** A call as an export writes it: the call, and its transcript when the export includes it. */
export interface ExportedCall {
  call: CallView;
  transcript?: TranscriptTurnView[];
}

/** The call's own fields, in the order the CSV header names them. */
const CALL_FIELDS = [
  'id',
  'number_id',
  'phone_number',
  'caller',
  'direction',
  'status',
  'outcome',
  'duration_sec',
  'started_at',
  'has_recording',
  'has_transcript',
] as const;
const ANALYSIS_FIELDS = ['analysis_summary', 'analysis_sentiment', 'analysis_successful', 'analysis_custom'] as const;

/** The CSV header row: the call's field names, then what `include` adds. */
export function csvHeader(include: readonly ExportInclude[]): string {
  const names: string[] = [...CALL_FIELDS];
  if (include.includes('analysis')) names.push(...ANALYSIS_FIELDS);
  if (include.includes('transcript')) names.push('transcript');
  return csvLine(names);
}

/** One exported call as a line (CSV or JSON), ending in a line break. */
export function exportLine(format: ExportFormat, include: readonly ExportInclude[], row: ExportedCall): string {
  const { analysis, recording_deletion: _r, transcript_deletion: _t, ...call } = row.call;
  if (format === 'jsonl') {
    return (
      JSON.stringify({
        ...call,
        ...(include.includes('analysis') && { analysis }),
        ...(include.includes('transcript') && { transcript: row.transcript ?? [] }),
      }) + '\n'
    );
  }
  const cells: (string | number | boolean | null)[] = CALL_FIELDS.map((field) => call[field]);
  if (include.includes('analysis'))
    cells.push(analysis.summary, analysis.sentiment, analysis.successful, JSON.stringify(analysis.custom));
  if (include.includes('transcript'))
    cells.push((row.transcript ?? []).map((turn) => `${turn.role}: ${turn.text}`).join('\n'));
  return csvLine(cells);
}

/** A CSV line (RFC 4180): cells joined by commas, the line ended by CRLF. */
function csvLine(cells: readonly (string | number | boolean | null | undefined)[]): string {
  return cells.map(csvCell).join(',') + '\r\n';
}

/**
 * One CSV cell. A text a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return) gets a leading `'`, so it opens as text (OWASP's advice against CSV injection): a caller's `+1415...` opens
 * as `'+1415...`. A cell with a comma, a quote or a line break is quoted, its quotes doubled. null is empty.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** What `include` names, in a fixed order (`analysis,transcript` and `transcript,analysis` are the same export). */
export function exportIncludes(include: string | undefined): ExportInclude[] {
  const named = new Set((include ?? '').split(',').filter(Boolean));
  return (['analysis', 'transcript'] as const).filter((name) => named.has(name));
}
