import {
  ANALYSIS_FIELD_TYPES as CONTRACT_TYPES,
  MAX_ANALYSIS_FIELDS as CONTRACT_MAX,
  type AnalysisFieldBody,
} from '@switchboard/contracts';
import {
  ANALYSIS_FIELD_TYPES,
  MAX_ANALYSIS_FIELDS,
  analysisFieldProblems,
  draftsOf,
  fieldsBody,
  parseChoices,
} from './analysis-fields';

describe("the agent's analysis fields, as the number page edits them", () => {
  it("offers the contracts' types and limit (the console cannot import them as values)", () => {
    expect(ANALYSIS_FIELD_TYPES).toEqual(CONTRACT_TYPES);
    expect(MAX_ANALYSIS_FIELDS).toBe(CONTRACT_MAX);
  });

  it('reads choices one per line, or separated by commas on one line', () => {
    expect(parseChoices('pickup, delivery ,dine in')).toEqual(['pickup', 'delivery', 'dine in']);
    expect(parseChoices('pickup\n delivery \r\n\ndine in\n')).toEqual(['pickup', 'delivery', 'dine in']);
    // One per line, a choice may hold a comma.
    expect(parseChoices('Paris, France\nLyon, France')).toEqual(['Paris, France', 'Lyon, France']);
    expect(parseChoices('only one\n\n')).toEqual(['only one']);
    expect(parseChoices(' , \n ')).toEqual([]);
  });

  it('sends the rows trimmed, with choices only for enum, and reads saved fields back unchanged', () => {
    const saved: AnalysisFieldBody[] = [
      { name: 'order_total', type: 'number', description: 'The order total in dollars.' },
      { name: 'city', type: 'enum', description: 'Where to deliver.', choices: ['Paris, France', 'Lyon'] },
    ];
    const drafts = draftsOf(saved, 7);
    expect(drafts.map((draft) => draft.key)).toEqual([7, 8]);
    expect(drafts[1].choices).toBe('Paris, France\nLyon');
    expect(fieldsBody(drafts)).toEqual(saved);
    expect(
      fieldsBody([
        { key: 1, name: ' pickup ', type: 'boolean', description: ' Picked up? ', choices: 'left over, from enum' },
      ]),
    ).toEqual([{ name: 'pickup', type: 'boolean', description: 'Picked up?' }]);
    expect(draftsOf(undefined)).toEqual([]);
  });

  it("places the server's problems next to the row and input they name, and keeps the others", () => {
    const problems = analysisFieldProblems(
      'greeting must be at most 500 characters; ' +
        'analysis_fields[0].name must be snake_case (a-z, 0-9 and _, starting with a letter); ' +
        'analysis_fields[0].description must not be empty; ' +
        'analysis_fields[2].choices[1] must be at most 100 characters; ' +
        'analysis_fields[3].choices is taken only with type enum; ' +
        'analysis_fields names must be unique',
    );
    expect(problems.rows).toEqual({
      0: {
        name: 'name must be snake_case (a-z, 0-9 and _, starting with a letter).',
        description: 'description must not be empty.',
      },
      2: { choices: 'choice 2 must be at most 100 characters.' },
      3: { choices: 'choices is taken only with type enum.' },
    });
    expect(problems.list).toBe('Analysis fields: names must be unique.');
    expect(problems.rest).toEqual(['greeting must be at most 500 characters']);

    expect(analysisFieldProblems('analysis_fields[1] must be an object').rows).toEqual({
      1: { field: 'Must be an object.' },
    });
    expect(analysisFieldProblems('The request body must be a JSON object.')).toEqual({
      rows: {},
      rest: ['The request body must be a JSON object.'],
    });
  });
});
