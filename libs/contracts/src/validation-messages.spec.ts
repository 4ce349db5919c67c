import { plainToInstance } from 'class-transformer';
import {
  getMetadataStorage,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  validateSync,
  ValidationTypes,
} from 'class-validator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as contracts from './index';
import { apiPropertyOptions } from './common/api-property';
import { describeValidationErrors, MAX_PROBLEMS_NAMED } from './common/validation-messages';

/**
 * Every DTO class exported by libs/contracts, found through class-validator's metadata (a DTO added later is in
 * the table without being listed), and for each of its validated properties: missing, null, wrong type, out of range
 * (and past what a database column holds), malformed, nested and unknown. Each 400 must name the property and its real
 * problem (docs/adr/0057).
 */
type Dto = new () => object;
type Rule = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];
type Plain = Record<string, unknown>;

const rulesOf = (cls: Dto): Rule[] => getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);

/** What the services and the gateway run: the DTO's rules, unknown fields refused. */
function messageFor(cls: Dto, plain: Plain): string {
  const errors = validateSync(plainToInstance(cls, plain), {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: false,
  });
  return describeValidationErrors(errors);
}

const dtos: Array<[string, Dto]> = Object.entries(contracts)
  .filter((entry): entry is [string, Dto] => typeof entry[1] === 'function' && rulesOf(entry[1] as Dto).length > 0)
  .sort(([a], [b]) => a.localeCompare(b));

// class-validator's own wording, which says the last rule rather than the problem (issue 20).
const DEFAULT_WORDING =
  /should not exist|either object or array|shorter than|longer than|greater than|less than|conform to the specified|regular expression|each value in|should not be (null|empty)/;

const TYPE_RULES: Record<string, { noun: string; wrong: unknown }> = {
  isString: { noun: 'a string', wrong: 12345 },
  isInt: { noun: 'an integer', wrong: 'abc' },
  isNumber: { noun: 'a number', wrong: 'abc' },
  isBoolean: { noun: 'a boolean', wrong: 'yes' },
  isArray: { noun: 'an array', wrong: 'abc' },
  isObject: { noun: 'an object', wrong: 'abc' },
};

/** Rules checked with a value of the right type and the wrong form. */
const FORMAT_RULES = [
  'matches',
  'isIso8601',
  'isCalendarDate',
  'isUsE164',
  'isE164',
  'isUsAreaCode',
  'isDialablePhone',
  'isEmail',
  'isUrl',
  'isPhotoUrl',
  'isUuid',
  'isHeaderMap',
  'isProviderPayload',
];
/** Every rule the table makes a case for; a DTO using another must add it here, with its case. */
const RULES_WITH_CASES = [
  ...Object.keys(TYPE_RULES),
  'isObject',
  'max',
  'min',
  'maxLength',
  'isIn',
  'arrayMaxSize',
  'isNotEmpty',
  'hasText',
  'isTextingCountry',
  ...FORMAT_RULES,
];

/** Values tried, in order, until one passes a property's rules; a new kind of rule may need one more here. */
const SAMPLES: unknown[] = [
  'acct_0123456789abcdefghij',
  'num_1',
  '+14158675309',
  '415',
  '2026-11-20',
  '2026-11-20T10:00:00Z',
  'https://example.com/hooks',
  'jane@example.com',
  'Union Station',
  '1',
  1,
  true,
  ['1'],
  ['US'],
  'call.completed',
  ['call.completed'],
  ['https://example.com/photo.jpg'],
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  'key_0123456789abcdef01234567',
  'usr_0123456789abcdef01234567',
  '6f1c2a9e-3b7d-4f5a-9c0e-1d2b3a4c5d6e',
  { 'X-Switchboard-Timestamp': '1763658224' },
  'numbers-billing-talk-time.1234',
  'key:key_0123456789abcdef01234567',
  'transcript,analysis',
];

/**
 * Integers the database refused with a 500 before issue 47: one past a PostgreSQL `integer` column, one past any
 * exact JSON number, and the largest exact one. Every integer property is sent each: refused when past its @Max.
 */
const LARGE_INTEGERS = [2_147_483_648, 1e20, Number.MAX_SAFE_INTEGER];
const INT4_MAX = 2 ** 31 - 1;
const INT8_MAX = 2n ** 63n - 1n;

/**
 * The integer properties whose @Max is past what a PostgreSQL `integer` holds, by the class that declares them, and
 * why that is safe: the `bigint` column it is stored in (app, model, column, and how many column units one unit of the
 * property is), checked against the app's schema.prisma below, or why it is never stored. Every other integer
 * property must be at most 2147483647, so a new one without a bound, or with one no column holds, fails here.
 */
const WIDER_THAN_INT4: Record<
  string,
  { column: [app: string, model: string, field: string, scale: number] } | { notStored: string }
> = {
  'CreateAccountBody.balance_cents': { column: ['numbers-billing', 'Account', 'balance_millicents', 1000] },
  'CreditAccountBody.amount_cents': { column: ['numbers-billing', 'LedgerEntry', 'amount_millicents', 1000] },
  'BalanceLowData.balance_cents': { notStored: 'an event: the balance, read from Account.balance_millicents' },
  'ReadRecordingQuery.offset': { notStored: 'a byte offset into a recording, never stored' },
  // Ids looked up, never written: lostfound answers 404 for one past MAX_STORED_ID (apps/lostfound isStoredId).
  ...Object.fromEntries(
    [
      'LocationBody.location_id',
      'LocationQuery.location_id',
      'LocationOfAccount.location_id',
      'UpdateLocationCommand.location_id',
      'IntIdParam.id',
      'GetFoundItemQuery.id',
      'GetClaimQuery.id',
      'DisposalCommand.id',
      'ReuniteCommand.id',
      'ReuniteBody.found_item_id',
    ].map((name) => [name, { notStored: 'an id looked up: past MAX_STORED_ID it names nothing (404)' }]),
  ),
};

/** An app's Prisma model field type (`Int`, `BigInt`, `Int?`...). */
function columnType(app: string, model: string, field: string): string | undefined {
  const schema = readFileSync(join(__dirname, '..', '..', '..', 'apps', app, 'prisma', 'schema.prisma'), 'utf8');
  const body = new RegExp(`^model ${model} \\{([^}]*)\\}`, 'm').exec(schema)?.[1] ?? '';
  return new RegExp(`^\\s*${field}\\s+(\\S+)`, 'm').exec(body)?.[1];
}

class Property {
  readonly rules: Rule[];
  constructor(
    readonly owner: Dto,
    readonly name: string,
  ) {
    this.rules = rulesOf(owner).filter((rule) => rule.propertyName === name);
  }

  get required(): boolean {
    return !this.rules.some((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION);
  }

  /** Described in the API with `nullable: true`: null means something there (`auto_top_up: null` turns it off). */
  get nullable(): boolean {
    return apiPropertyOptions(this.owner, this.name)?.nullable === true;
  }

  /** Part of a request's API description (not a field our own services set on a command or an event). */
  get described(): boolean {
    return apiPropertyOptions(this.owner, this.name) !== undefined;
  }

  get integer(): boolean {
    return this.rules.some((rule) => (rule.name === 'isInt' || rule.name === 'isNumber') && !rule.each);
  }

  /** `Class.property`, by the class that declares the property's type rule (a command inherits its body's). */
  get declaredAs(): string {
    const typeRule = this.rules.find((rule) => rule.name === 'isInt' || rule.name === 'isNumber');
    return `${(typeRule?.target as Dto | undefined)?.name ?? this.owner.name}.${this.name}`;
  }

  rule(name: string): Rule | undefined {
    return this.rules.find((rule) => rule.name === name);
  }

  get nested(): Rule | undefined {
    return this.rules.find((rule) => rule.type === ValidationTypes.NESTED_VALIDATION);
  }

  /** The class of a nested property, as class-transformer builds it. */
  get nestedClass(): Dto | undefined {
    const nested = this.nested;
    if (!nested) return undefined;
    const built = (plainToInstance(this.owner, { [this.name]: nested.each ? [{}] : {} }) as Plain)[this.name];
    const item: unknown = nested.each ? (built as unknown[])[0] : built;
    return (item as object).constructor as Dto;
  }

  /** Rules declared top to bottom: class-validator stores them bottom-up. */
  get declared(): Rule[] {
    return [...this.rules].reverse().filter((rule) => rule.type === ValidationTypes.CUSTOM_VALIDATION);
  }
}

function propertiesOf(cls: Dto): Property[] {
  return [...new Set(rulesOf(cls).map((rule) => rule.propertyName))].map((name) => new Property(cls, name));
}

function problemsOf(cls: Dto, plain: Plain): string[] {
  return validateSync(plainToInstance(cls, plain), {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: false,
  })
    .filter((error) => Object.keys(plain).includes(error.property))
    .map((error) => error.property);
}

/** A value every rule of the property accepts. */
function validValue(property: Property): unknown {
  const nestedClass = property.nestedClass;
  if (nestedClass) return property.nested?.each ? [validBody(nestedClass)] : validBody(nestedClass);
  const choices = (property.rule('isIn')?.constraints[0] as unknown[] | undefined) ?? [];
  const least = property.rule('min')?.constraints ?? [];
  for (const sample of [...choices, ...least, ...SAMPLES]) {
    if (problemsOf(property.owner, { [property.name]: sample }).length === 0) return sample;
  }
  throw new Error(`No sample passes the rules of ${property.owner.name}.${property.name}: add one to SAMPLES`);
}

/** The required properties only, each with a valid value. */
function validBody(cls: Dto): Plain {
  return Object.fromEntries(
    propertiesOf(cls)
      .filter((p) => p.required)
      .map((p) => [p.name, validValue(p)]),
  );
}

function without(body: Plain, name: string): Plain {
  return Object.fromEntries(Object.entries(body).filter(([key]) => key !== name));
}

interface Case {
  title: string;
  plain: Plain;
  message: string | RegExp;
}

/** A DTO's own message for a rule wins over the fixed wording (docs/adr/0057). */
function wordsOf(rule: Rule, fixed: string): string {
  return typeof rule.message === 'string' ? rule.message : fixed;
}

/** The malformed-value message a property says when its value has the right type but the wrong form. */
function malformedMessage(property: Property, rule: Rule): string | RegExp {
  if (typeof rule.message === 'string') return rule.message;
  if (rule.name === 'matches') return `${property.name} must match ${String(rule.constraints[0])}`;
  if (rule.name === 'isIso8601') return `${property.name} must be an ISO 8601 date-time`;
  return new RegExp(`^${property.name} must `);
}

/** A rule checked on each item names the item (`sms_countries[0] ...`), its own message included. */
function atPath(message: string | RegExp, name: string, path: string): string | RegExp {
  if (typeof message === 'string') return message.replace(name, path);
  // A message built when it fails (`@IsPhotoUrl` says which problem): only its start, the path, is known.
  const start = `^${name} `;
  return message.source.startsWith(start)
    ? new RegExp(`^${path.replace(/[[\]]/g, '\\$&')} ${message.source.slice(start.length)}`)
    : message;
}

function casesOf(cls: Dto): Case[] {
  const body = validBody(cls);
  const cases: Case[] = [
    { title: 'accepts a valid body', plain: body, message: '' },
    {
      title: 'names an unknown field',
      plain: { ...body, not_a_field: 1 },
      message: 'not_a_field is not a known field',
    },
  ];
  for (const property of propertiesOf(cls)) {
    const name = property.name;
    const valid = validValue(property);
    const withValue = (value: unknown): Plain => ({ ...body, [name]: value });
    if (property.required)
      cases.push({ title: `${name} missing`, plain: without(body, name), message: `${name} is required` });

    const typeRules = property.declared.filter((rule) => rule.name !== undefined && rule.name in TYPE_RULES);
    for (const rule of typeRules.filter((candidate) => candidate.each)) {
      const { noun, wrong } = TYPE_RULES[rule.name as string];
      const index = [valid].flat().length;
      cases.push({
        title: `${name} with an item of the wrong type`,
        plain: withValue([valid, wrong].flat()),
        message: `${name}[${index}] must be ${noun}`,
      });
    }
    const typeRule = typeRules.find((candidate) => !candidate.each);
    if (typeRule) {
      const { noun, wrong } = TYPE_RULES[typeRule.name as string];
      const message = wordsOf(typeRule, `${name} must be ${noun}`);
      cases.push({ title: `${name} of the wrong type`, plain: withValue(wrong), message });
    } else if (property.nested && !property.nested.each) {
      for (const wrong of ['abc', [], [1]])
        cases.push({
          title: `${name} as ${JSON.stringify(wrong)}`,
          plain: withValue(wrong),
          message: `${name} must be an object`,
        });
    } else if (!property.nested) {
      const [first] = property.declared;
      cases.push({ title: `${name} as an object`, plain: withValue({}), message: malformedMessage(property, first) });
    }

    // Null where a value is required (issue 47): refused naming the property, unless the API says null means something.
    // A field our own services set (no API description) is theirs to send.
    if (property.nullable) {
      cases.push({ title: `${name} null, which it takes`, plain: withValue(null), message: '' });
    } else if (property.required || property.described) {
      const typeRule = typeRules.find((candidate) => !candidate.each);
      const expected: string | RegExp = typeRule
        ? wordsOf(typeRule, `${name} must be ${TYPE_RULES[typeRule.name as string].noun}`)
        : property.nested
          ? `${name} must be ${property.nested.each ? 'an array' : 'an object'}`
          : new RegExp(`^${name} must [^;]*$`);
      cases.push({ title: `${name} null`, plain: withValue(null), message: expected });
    }

    if (property.integer) {
      const max = property.rule('max');
      const bound = max?.constraints[0] as number | undefined;
      for (const large of LARGE_INTEGERS)
        cases.push({
          title: `${name} ${String(large)}`,
          plain: withValue(large),
          message:
            max && bound !== undefined && large > bound ? wordsOf(max, `${name} must be at most ${String(bound)}`) : '',
        });
    }

    for (const rule of property.declared) {
      const [bound] = rule.constraints ?? [];
      const each = (value: unknown) => (rule.each ? [value] : value);
      const path = rule.each ? `${name}[0]` : name;
      const text = typeof valid === 'string' ? valid : '';
      switch (rule.name) {
        case 'max':
          cases.push({
            title: `${name} above ${String(bound)}`,
            plain: withValue((bound as number) + 1),
            message: wordsOf(rule, `${name} must be at most ${String(bound)}`),
          });
          break;
        case 'min':
          cases.push({
            title: `${name} below ${String(bound)}`,
            plain: withValue((bound as number) - 1),
            message: wordsOf(rule, `${name} must be at least ${String(bound)}`),
          });
          break;
        case 'maxLength':
          cases.push({
            title: `${name} longer than ${String(bound)}`,
            plain: withValue(each(text.padEnd((bound as number) + 1, 'x'))),
            message: wordsOf(rule, `${path} must be at most ${String(bound)} characters`),
          });
          break;
        case 'isIn':
          cases.push({
            title: `${name} not a choice`,
            plain: withValue('not-a-choice'),
            message: wordsOf(rule, `${name} must be one of ${(bound as unknown[]).join(', ')}`),
          });
          break;
        case 'arrayMaxSize': {
          const item = (valid as unknown[])[0] ?? '1';
          cases.push({
            title: `${name} with too many items`,
            plain: withValue(Array.from({ length: (bound as number) + 1 }, () => item)),
            message: wordsOf(rule, `${name} must have at most ${String(bound)} items`),
          });
          break;
        }
        case 'isNotEmpty':
        case 'hasText':
          cases.push({
            title: `${name} empty`,
            plain: withValue(''),
            message: wordsOf(rule, `${name} must not be empty`),
          });
          break;
        case 'isTextingCountry':
          // Well formed (two letters) but no numbering plan: the rule after the format's.
          cases.push({
            title: `${name} with an unknown country`,
            plain: withValue(each('XX')),
            message: wordsOf(rule, `${path} must be a known country`).replace(name, path),
          });
          break;
        default:
          if (FORMAT_RULES.includes(rule.name ?? ''))
            cases.push({
              title: `${name} malformed`,
              plain: withValue(each('% %')),
              message: atPath(malformedMessage(property, rule), name, path),
            });
          break;
      }
    }

    const nestedClass = property.nestedClass;
    if (nestedClass) {
      const item = validBody(nestedClass);
      const at = (index: number) => (property.nested?.each ? `${name}[${index}]` : name);
      const place = (value: Plain) => (property.nested?.each ? withValue([item, item, value]) : withValue(value));
      const index = property.nested?.each ? 2 : 0;
      for (const inner of propertiesOf(nestedClass).filter((p) => p.required)) {
        cases.push({
          title: `${name} without ${inner.name}`,
          plain: place(without(item, inner.name)),
          message: `${at(index)}.${inner.name} is required`,
        });
      }
      cases.push({
        title: `${name} with an unknown field`,
        plain: place({ ...item, extra: 1 }),
        message: `${at(index)}.extra is not a known field`,
      });
      if (property.nested?.each)
        cases.push({
          title: `${name} with an item that is not an object`,
          plain: withValue([item, 7]),
          message: `${name}[1] must be an object`,
        });
    }
  }
  return cases;
}

describe('validation messages, for every DTO exported by libs/contracts', () => {
  it('finds the DTOs (the table is not empty)', () => {
    expect(dtos.length).toBeGreaterThan(40);
    expect(dtos.map(([name]) => name)).toEqual(
      expect.arrayContaining(['NumberCreate', 'FoundItemCreate', 'SimulateProviderCallBody', 'CursorPageQuery']),
    );
  });

  it('has cases for every rule the DTOs use', () => {
    const used = new Set(
      dtos.flatMap(([, cls]) =>
        rulesOf(cls)
          .filter((rule) => rule.type === ValidationTypes.CUSTOM_VALIDATION)
          .map((rule) => rule.name),
      ),
    );
    expect([...used].filter((name) => !RULES_WITH_CASES.includes(name ?? ''))).toEqual([]);
  });

  it('bounds every integer property by what its column holds (an integer, or a bigint named here)', () => {
    const problems = new Set<string>();
    const wider = new Set<string>();
    for (const [, cls] of dtos) {
      for (const property of propertiesOf(cls).filter((p) => p.integer)) {
        const [min] = property.rule('min')?.constraints ?? [];
        const [max] = property.rule('max')?.constraints ?? [];
        const where = property.declaredAs;
        if (typeof min !== 'number') problems.add(`${where} has no @Min`);
        if (typeof max !== 'number') {
          problems.add(`${where} has no @Max`);
          continue;
        }
        if (max > Number.MAX_SAFE_INTEGER || (typeof min === 'number' && min < -Number.MAX_SAFE_INTEGER))
          problems.add(`${where} goes past the exact JSON integers`);
        if (max <= INT4_MAX) continue;
        const reason = WIDER_THAN_INT4[where];
        wider.add(where);
        if (!reason) {
          problems.add(`${where} allows ${max}, past a PostgreSQL integer: bound it, or name its bigint column above`);
        } else if ('column' in reason) {
          const [app, model, field, scale] = reason.column;
          const type = columnType(app, model, field);
          if (type?.replace('?', '') !== 'BigInt')
            problems.add(`${where}: ${app} ${model}.${field} is ${type}, not BigInt`);
          else if (BigInt(max) * BigInt(scale) > INT8_MAX) problems.add(`${where}: ${max} x ${scale} is past a bigint`);
        }
      }
    }
    expect([...problems]).toEqual([]);
    // Nothing listed above that no longer needs to be.
    expect(Object.keys(WIDER_THAN_INT4).filter((name) => !wider.has(name))).toEqual([]);
  });

  describe.each(dtos)('%s', (_, cls) => {
    it.each(casesOf(cls).map((c) => [c.title, c] as const))('%s', (_title, { plain, message }) => {
      const said = messageFor(cls, plain);
      if (typeof message === 'string') expect(said).toBe(message);
      else expect(said).toMatch(message);
      expect(said).not.toMatch(DEFAULT_WORDING);
    });
  });
});

describe('describeValidationErrors', () => {
  class Reversed {
    @MaxLength(5)
    @IsString()
    name: string;

    @Max(10)
    @Min(1)
    @IsInt()
    count: number;
  }

  it('says a missing property is required and a wrong type before a length or range, whatever the decorator order', () => {
    expect(messageFor(Reversed, { count: 2 })).toBe('name is required');
    expect(messageFor(Reversed, { name: 'a' })).toBe('count is required');
    expect(messageFor(Reversed, { name: 123456, count: 2 })).toBe('name must be a string');
    expect(messageFor(Reversed, { name: 'a', count: 'many' })).toBe('count must be an integer');
    expect(messageFor(Reversed, { name: 'a', count: 2.5 })).toBe('count must be an integer');
    expect(messageFor(Reversed, { name: 'abcdef', count: 11 })).toBe(
      'name must be at most 5 characters; count must be at most 10',
    );
  });

  it('names every problem, unknown fields first, then in declaration order, and counts those past the first ten', () => {
    expect(messageFor(Reversed, { Name: 'a', count: 0 })).toBe(
      'Name is not a known field; name is required; count must be at least 1',
    );
    expect(messageFor(contracts.FoundItemCreate, { locationId: 1 })).toBe(
      'locationId is not a known field; location_id is required; description is required',
    );
    expect(messageFor(contracts.ClaimCreate, { claimant_phone: '12' })).toBe(
      'location_id is required; claimant_name is required; claimant_phone must be a valid phone number (E.164, or a US number)',
    );
    const turns = Array.from({ length: 12 }, () => ({ text: 'hi' }));
    const said = messageFor(contracts.SimulateProviderCallBody, {
      to: '+14158675309',
      caller: '+14158675309',
      duration_sec: 1,
      outcome: 'ok',
      transcript: turns,
    });
    expect(said.split('; ')).toHaveLength(MAX_PROBLEMS_NAMED + 1);
    expect(said).toMatch(
      /^transcript\[0\]\.role is required; transcript\[1\]\.role is required; .*; and 2 more problems$/,
    );
  });
});
