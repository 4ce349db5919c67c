// The agent's analysis fields as the number page edits them (`analysis_fields` of PUT /numbers/{id}/agent): what
// people type read as the API's body, and the API's 400 placed next to the field and the input it is about. Pure
// functions, unit-tested (analysis-fields.spec.ts). The rules themselves are the server's (AnalysisFieldBody).
import type { AnalysisFieldBody, AnalysisFieldType } from '@switchboard/contracts';

/** ANALYSIS_FIELD_TYPES and MAX_ANALYSIS_FIELDS of the contracts (the console takes their types only). */
export const ANALYSIS_FIELD_TYPES: readonly AnalysisFieldType[] = ['string', 'number', 'boolean', 'enum'];
export const MAX_ANALYSIS_FIELDS = 20;

/** What each type means, for the type picker. */
export const ANALYSIS_TYPE_LABELS: Readonly<Record<AnalysisFieldType, string>> = {
  string: 'Text',
  number: 'Number',
  boolean: 'Yes or no',
  enum: 'One of a list',
};

/** One field as the form holds it: `choices` as typed; `key` keeps each row's inputs its own when one is removed. */
export interface AnalysisFieldDraft {
  key: number;
  name: string;
  type: AnalysisFieldType;
  description: string;
  choices: string;
}

/** The inputs of a field's row, which a problem may be about. */
export type AnalysisFieldInput = 'name' | 'type' | 'description' | 'choices';

/**
 * Choices typed one per line, or separated by commas on one line: with more than one line, each line is a choice
 * (a choice may then hold a comma); blanks and surrounding spaces are left out.
 */
export function parseChoices(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const items = lines.filter((line) => line.trim()).length > 1 ? lines : text.split(',');
  return items.map((item) => item.trim()).filter(Boolean);
}

/** Saved choices back in the form: one per line, so a choice holding a comma reads back as it was. */
export function choicesText(choices: readonly string[] | undefined): string {
  return (choices ?? []).join('\n');
}

/** The saved fields as the form's rows, numbered from `firstKey`. */
export function draftsOf(fields: readonly AnalysisFieldBody[] | undefined, firstKey = 0): AnalysisFieldDraft[] {
  return (fields ?? []).map((field, index) => ({
    key: firstKey + index,
    name: field.name,
    type: field.type,
    description: field.description,
    choices: choicesText(field.choices),
  }));
}

/** The rows as the API's `analysis_fields`: trimmed, `choices` only with `enum` (the API refuses them elsewhere). */
export function fieldsBody(drafts: readonly AnalysisFieldDraft[]): AnalysisFieldBody[] {
  return drafts.map((draft) => ({
    name: draft.name.trim(),
    type: draft.type,
    description: draft.description.trim(),
    ...(draft.type === 'enum' ? { choices: parseChoices(draft.choices) } : {}),
  }));
}

/** A 400's problems about the fields: each row's by input, the list's own, and the rest (other settings). */
export interface AnalysisFieldProblems {
  /** By row index: what is wrong with each input, or with the row as a whole (`field`). */
  rows: Record<number, Partial<Record<AnalysisFieldInput | 'field', string>>>;
  /** About the list as a whole (`analysis_fields names must be unique`, too many fields). */
  list?: string;
  /** The problems that are not about the fields, as the server wrote them. */
  rest: string[];
}

const ROW_PROBLEM = /^analysis_fields\[(\d+)\](?:\.(name|type|description|choices)(?:\[(\d+)\])?)?:?\s+(.+)$/;

/**
 * The server's message (`; `-separated problems, each naming its path: `analysis_fields[1].name must be snake_case
 * ...`) sorted into the rows and inputs it is about, each as a sentence of its own: `name must be snake_case ...`,
 * `choice 3 must not be empty.` (the server's 0-based `choices[2]` as people count the lines).
 */
export function analysisFieldProblems(message: string): AnalysisFieldProblems {
  const problems: AnalysisFieldProblems = { rows: {}, rest: [] };
  for (const problem of message.split(/;\s+/).filter(Boolean)) {
    const row = ROW_PROBLEM.exec(problem);
    if (row) {
      const [, index, input, item, words] = row;
      const subject = input === 'choices' && item !== undefined ? `choice ${Number(item) + 1}` : input;
      const text = endSentence(subject ? `${subject} ${words}` : capitalize(words));
      const at = (problems.rows[Number(index)] ??= {});
      const key = (input as AnalysisFieldInput | undefined) ?? 'field';
      at[key] = at[key] ? `${at[key]} ${text}` : text;
    } else if (/^analysis_fields\b/.test(problem)) {
      const text = endSentence(problem.replace(/^analysis_fields\s+/, 'Analysis fields: '));
      problems.list = problems.list ? `${problems.list} ${text}` : text;
    } else {
      problems.rest.push(problem);
    }
  }
  return problems;
}

function endSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
