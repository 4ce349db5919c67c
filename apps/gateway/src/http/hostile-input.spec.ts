import {
  MAX_JSON_DEPTH,
  describeUnusableBodyText,
  describeUnusableParameter,
  findUnusableText,
  jsonNestingExceeds,
  textProblem,
} from './hostile-input';

describe('hostile input', () => {
  it('measures JSON nesting in one pass, skipping brackets inside strings and escaped quotes', () => {
    expect(jsonNestingExceeds(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBe(false);
    expect(jsonNestingExceeds(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(true);
    expect(jsonNestingExceeds(`{"a":"${'['.repeat(1000)}"}`)).toBe(false);
    expect(jsonNestingExceeds(`{"a":"\\"${'{'.repeat(100)}"}`)).toBe(false);
    expect(jsonNestingExceeds('{"a":' + '{"b":'.repeat(40))).toBe(true);
  });

  it('refuses NUL characters and unpaired surrogates, and accepts paired ones', () => {
    expect(textProblem('a\u0000b')).toMatch(/NUL character/);
    expect(textProblem('a\ud800')).toMatch(/unpaired UTF-16 surrogate/);
    expect(textProblem('\udc00a')).toMatch(/unpaired UTF-16 surrogate/);
    expect(textProblem('\ud83d\udca9 ok')).toBeUndefined();
    expect(textProblem('plain text')).toBeUndefined();
  });

  it('names where in a body the unusable text is, field names included', () => {
    expect(describeUnusableBodyText(findUnusableText({ a: 1, items: [{ name: 'ok' }, { name: 'x\u0000' }] })!)).toBe(
      'The body field items[1].name contains a NUL character (U+0000), which no field accepts.',
    );
    expect(describeUnusableBodyText(findUnusableText({ nested: { 'k\ud800': 1 } })!)).toBe(
      'The body field nested has a field name that contains an unpaired UTF-16 surrogate, which is not valid Unicode.',
    );
    expect(describeUnusableBodyText(findUnusableText('\u0000')!)).toBe(
      'The request body contains a NUL character (U+0000), which no field accepts.',
    );
    expect(findUnusableText({ a: ['fine', 1, null, true] })).toBeUndefined();
  });

  it('names the path or query parameter, repeated query values included', () => {
    expect(describeUnusableParameter({ id: 'a\u0000' }, {})).toBe(
      'The path parameter id contains a NUL character (U+0000), which no field accepts.',
    );
    expect(describeUnusableParameter({ '*': 'x/\u0000' }, {})).toMatch(/^The URL path contains a NUL/);
    expect(describeUnusableParameter({}, { q: ['ok', 'b\ud800'] })).toMatch(
      /^The query parameter q contains an unpaired/,
    );
    expect(describeUnusableParameter({ id: '1' }, { q: 'fine' })).toBeUndefined();
    expect(describeUnusableParameter(null, undefined)).toBeUndefined();
  });
});
