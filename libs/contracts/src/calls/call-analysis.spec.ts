import { analysisFieldsProblem, type AnalysisFieldDefinition } from '../numbers/analysis-field.dto';
import { fitCustomAnalysis, sentimentOf, summaryOf } from './call-analysis';

const FIELDS: AnalysisFieldDefinition[] = [
  { name: 'order_total', type: 'number', description: 'Total in dollars' },
  { name: 'pickup', type: 'boolean', description: 'Pickup or not' },
  { name: 'note', type: 'string', description: 'Anything else' },
  { name: 'size', type: 'enum', description: 'Pizza size', choices: ['small', 'large'] },
];

describe('fitCustomAnalysis', () => {
  it('keeps each value of its declared type and drops the rest, saying why', () => {
    const { custom, dropped } = fitCustomAnalysis(FIELDS, {
      order_total: 23.5,
      pickup: true,
      note: 'Extra napkins',
      size: 'large',
      mood: 'happy',
    });
    expect(custom).toEqual({ order_total: 23.5, pickup: true, note: 'Extra napkins', size: 'large' });
    expect(dropped).toEqual([{ name: 'mood', reason: 'undeclared' }]);
  });

  it.each([
    ['order_total', '23.5', 'wrong_type'],
    ['order_total', Number.NaN, 'wrong_type'],
    ['pickup', 'true', 'wrong_type'],
    ['pickup', 1, 'wrong_type'],
    ['note', 42, 'wrong_type'],
    ['note', 'x'.repeat(2001), 'too_long'],
    ['size', 'medium', 'not_a_choice'],
    ['size', 1, 'wrong_type'],
  ])('drops %s = %p (%s), never keeping it as something else', (name, value, reason) => {
    expect(fitCustomAnalysis(FIELDS, { [name]: value })).toEqual({ custom: {}, dropped: [{ name, reason }] });
  });

  it('passes over values the agent left out (null)', () => {
    expect(fitCustomAnalysis(FIELDS, { order_total: null })).toEqual({ custom: {}, dropped: [] });
  });
});

describe('sentimentOf and summaryOf', () => {
  it('reads a platform word in any case, anything else as unknown', () => {
    expect(sentimentOf('Positive')).toBe('positive');
    expect(sentimentOf(' NEGATIVE ')).toBe('negative');
    expect(sentimentOf('elated')).toBe('unknown');
    expect(sentimentOf(undefined)).toBe('unknown');
  });

  it('keeps a summary trimmed and cut at 5,000 characters; blank or not text is null', () => {
    expect(summaryOf('  Ordered.  ')).toBe('Ordered.');
    expect(summaryOf('x'.repeat(6000))).toHaveLength(5000);
    expect(summaryOf('   ')).toBeNull();
    expect(summaryOf(7)).toBeNull();
  });
});

describe('analysisFieldsProblem', () => {
  const field = (extra: Partial<AnalysisFieldDefinition>): AnalysisFieldDefinition => ({
    name: 'a',
    type: 'string',
    description: 'd',
    ...extra,
  });

  it('accepts fields with unique names and choices only on enums', () => {
    expect(analysisFieldsProblem(FIELDS)).toBeNull();
    expect(analysisFieldsProblem([])).toBeNull();
  });

  it.each([
    [[field({}), field({})], 'analysis_fields[1].name a is declared twice; names must be unique'],
    [[field({ choices: ['x'] })], 'analysis_fields[0].choices is taken only with type enum'],
    [[field({ type: 'enum' })], 'analysis_fields[0].choices must be given with type enum (1 or more)'],
    [[field({ type: 'enum', choices: [] })], 'analysis_fields[0].choices must be given with type enum (1 or more)'],
    [[field({ type: 'enum', choices: ['x', 'x'] })], 'analysis_fields[0].choices must not repeat a choice'],
    [[field({ type: 'enum', choices: ['x', ' '] })], 'analysis_fields[0].choices must not hold an empty choice'],
  ])('names the first problem: %#', (fields, problem) => {
    expect(analysisFieldsProblem(fields)).toBe(problem);
  });
});
