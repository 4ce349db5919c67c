// The calls page's Export: GET /console/api/calls/export for the page's current filters (the same calls the list
// selects, every page of them), as CSV or JSON lines, with the transcript and the analysis when asked. A plain link
// (a GET with the session cookie; the server answers with Content-Disposition: attachment). Pure functions,
// unit-tested (call-export.spec.ts).
import type { ExportFormat, ExportInclude } from '@switchboard/contracts';
import { apiUrl } from './api';
import { activeFilterCount, filterQuery, type CallFilterQuery, type CallFilters } from './call-filters';

/** EXPORT_FORMATS of the contracts, with the words the page shows (the console takes the contracts' types only). */
export const EXPORT_FORMAT_CHOICES: readonly { value: ExportFormat; label: string; hint: string }[] = [
  { value: 'csv', label: 'CSV', hint: 'A spreadsheet: one row a call, a header row first.' },
  { value: 'jsonl', label: 'JSON lines', hint: 'One JSON object a line, for programs.' },
];

/** What the person chose in the Export control. */
export interface ExportChoice {
  format: ExportFormat;
  transcript: boolean;
  analysis: boolean;
}

export const DEFAULT_EXPORT_CHOICE: ExportChoice = Object.freeze({
  format: 'csv',
  transcript: false,
  analysis: false,
});

/** EXPORT_INCLUDES chosen, in the contracts' order: `transcript,analysis`, or undefined when neither. */
export function exportIncludes(choice: ExportChoice): string | undefined {
  const include: ExportInclude[] = [];
  if (choice.transcript) include.push('transcript');
  if (choice.analysis) include.push('analysis');
  return include.length ? include.join(',') : undefined;
}

/**
 * ExportCallsQuery for the filters: every filter of the list (filterQuery, so the export holds the calls the list
 * shows), no page and no count, then the format and what to include.
 */
export function exportQuery(
  filters: CallFilters,
  choice: ExportChoice,
): CallFilterQuery & { format: ExportFormat; include?: string } {
  return { ...filterQuery(filters), format: choice.format, include: exportIncludes(choice) };
}

/** The address the Export link downloads. */
export function exportHref(filters: CallFilters, choice: ExportChoice): string {
  return apiUrl('/console/api/calls/export', { query: exportQuery(filters, choice) });
}

/** What the export holds, in words: every call, or those matching the search and the filters set. */
export function exportScope(filters: CallFilters): string {
  const others = activeFilterCount(filters, ['q']);
  const parts = [
    filters.q ? 'the search' : '',
    others === 1 ? 'the filter set' : others > 1 ? `the ${others} filters set` : '',
  ].filter(Boolean);
  return parts.length ? `Every call matching ${parts.join(' and ')}, newest first.` : 'Every call, newest first.';
}
