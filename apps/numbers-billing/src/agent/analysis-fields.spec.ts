import { ServiceError, type AnalysisFieldBody } from '@switchboard/contracts';
import { acceptAnalysisFields, analysisFieldsFrom, analysisFieldsOf } from './analysis-fields';
import { postCallAnalysisData } from './retell-agent-runtime.adapter';

const kind = { name: 'order_kind', type: 'enum', description: 'Pickup or delivery.', choices: ['pickup', 'delivery'] };
const total = { name: 'order_total', type: 'number', description: 'The order total.' };

describe('analysis fields', () => {
  it('keeps none for a body without fields, null or empty', () => {
    expect(analysisFieldsFrom(undefined)).toEqual([]);
    expect(analysisFieldsFrom(null)).toEqual([]);
    expect(analysisFieldsFrom([])).toEqual([]);
  });

  it('keeps name, type, description and (enum only) choices, in the order given, and nothing else', () => {
    const body = [
      { ...total, choices: undefined, extra: 'x' },
      { ...kind },
      { name: 'notes', type: 'string', description: 'Notes.', choices: undefined },
    ] as unknown as AnalysisFieldBody[];
    const kept = analysisFieldsFrom(body);
    expect(kept).toEqual([total, kind, { name: 'notes', type: 'string', description: 'Notes.' }]);
    expect(kept.map((field) => Object.keys(field))).toEqual([
      ['name', 'type', 'description'],
      ['name', 'type', 'description', 'choices'],
      ['name', 'type', 'description'],
    ]);
  });

  it('accepts fields that agree with each other, and refuses clashing ones as invalid_request naming the first', () => {
    expect(acceptAnalysisFields([kind, total] as AnalysisFieldBody[])).toEqual([kind, total]);
    expect(acceptAnalysisFields(null)).toEqual([]);
    const refusal = (fields: unknown[]) => {
      try {
        acceptAnalysisFields(fields as AnalysisFieldBody[]);
      } catch (error) {
        return error instanceof ServiceError ? [error.code, error.message.split(' ')[0]] : error;
      }
      return null;
    };
    expect(refusal([total, kind, { ...total, type: 'string' }])).toEqual([
      'invalid_request',
      'analysis_fields[2].name',
    ]);
    expect(refusal([{ ...kind, choices: undefined }])).toEqual(['invalid_request', 'analysis_fields[0].choices']);
    expect(refusal([total, { ...total, name: 'notes', choices: ['a'] }])).toEqual([
      'invalid_request',
      'analysis_fields[1].choices',
    ]);
  });

  it('reads the JSON column parsed or as text, and anything but an array as none', () => {
    expect(analysisFieldsOf([kind, total])).toEqual([kind, total]);
    expect(analysisFieldsOf(JSON.stringify([total]))).toEqual([total]);
    expect(analysisFieldsOf(null)).toEqual([]);
    expect(analysisFieldsOf({})).toEqual([]);
  });

  it("sends them to Retell as post_call_analysis_data items of Retell's types", () => {
    expect(
      postCallAnalysisData([
        { name: 'order_kind', type: 'enum', description: 'Pickup or delivery.', choices: ['pickup', 'delivery'] },
        { name: 'order_total', type: 'number', description: 'The order total.' },
        { name: 'callback', type: 'boolean', description: 'Call back?' },
        { name: 'notes', type: 'string', description: 'Notes.' },
      ]),
    ).toEqual([
      { type: 'enum', name: 'order_kind', description: 'Pickup or delivery.', choices: ['pickup', 'delivery'] },
      { type: 'number', name: 'order_total', description: 'The order total.' },
      { type: 'boolean', name: 'callback', description: 'Call back?' },
      { type: 'string', name: 'notes', description: 'Notes.' },
    ]);
    expect(postCallAnalysisData([])).toEqual([]);
  });
});
