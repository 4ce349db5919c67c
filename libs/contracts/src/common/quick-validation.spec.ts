import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  getMetadataStorage,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  registerDecorator,
  validateSync,
  ValidateNested,
} from 'class-validator';
import * as contracts from '../index';
import { quickValidInstance } from './quick-validation';
import { rememberValidationRules } from './validation-rules';

type Dto = new () => object;

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false };

/** The full way: what libs/messaging validation.ts and the gateway's pipe do without the quick check. */
function fullWay(cls: Dto, plain: object): { instance: object; valid: boolean } {
  const instance = plainToInstance(cls, plain);
  return { instance, valid: validateSync(instance, OPTIONS).length === 0 };
}

/** Values of the kinds DTO properties take, valid for some rules and not for others. */
const VALUES: unknown[] = [
  null,
  '',
  ' ',
  'x',
  '5',
  '1.5',
  'abc',
  'num_1',
  '12',
  'acct_0123456789abcdefghij',
  '+14155550123',
  '4155550123',
  '415',
  'US',
  'https://example.com/hooks',
  'http://localhost/x',
  'call.completed',
  'number.updated',
  'live',
  'test',
  'en-US',
  '2026-01-01',
  '2026-01-01T00:00:00Z',
  '2026-13-45T99:00:00Z',
  'someone@example.com',
  '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  'x'.repeat(3000),
  0,
  1,
  5,
  50,
  100,
  101,
  -1,
  1.5,
  3600,
  true,
  false,
  [],
  ['call.completed'],
  ['call.completed', 'call.completed'],
  [1, 2],
  [{ a: 1 }],
  [{ role: 'caller', text: 'Hello' }],
  [
    { role: 'agent', text: 'Hi' },
    { role: 'caller', text: '' },
  ],
  {},
  { greeting: 'Hello', voice: 'alloy' },
  { 'x-custom': 'value' },
  { a: { b: 1 } },
];

/** A seeded generator, so a failure names an input that can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const storage = getMetadataStorage();
const rulesOf = (cls: Dto) => storage.getTargetValidationMetadatas(cls, undefined as unknown as string, false, false);

describe('quickValidInstance', () => {
  beforeAll(() => rememberValidationRules());

  it('makes an instance only of what the full way finds valid, and the same instance, for every contract DTO', () => {
    const dtos = Object.values(contracts).filter(
      (value): value is Dto => typeof value === 'function' && rulesOf(value as Dto).length > 0,
    );
    expect(dtos.length).toBeGreaterThan(50);
    const next = random(19);
    let valid = 0;
    let quick = 0;
    for (const dto of dtos) {
      const properties = Object.keys(storage.groupByPropertyName(rulesOf(dto)));
      for (let sample = 0; sample < 400; sample += 1) {
        const plain: Record<string, unknown> = {};
        for (const property of properties) {
          // About a third of the properties left out; once in a while a key no rule knows.
          if (next() < 0.35) continue;
          plain[property] = VALUES[Math.floor(next() * VALUES.length)];
        }
        if (next() < 0.05) plain.unexpected = 'x';
        const full = fullWay(dto, structuredClone(plain));
        const made = quickValidInstance(dto, structuredClone(plain));
        if (full.valid) valid += 1;
        if (made === undefined) continue;
        quick += 1;
        expect({ dto: dto.name, plain, valid: full.valid }).toEqual({ dto: dto.name, plain, valid: true });
        expect(made).toStrictEqual(full.instance);
      }
    }
    // The quick way is taken for most valid samples (objects in properties and a few DTOs are left to the full way).
    expect(valid).toBeGreaterThan(1000);
    expect(quick / valid).toBeGreaterThan(0.6);
  });

  it('converts what `@Type` converts and builds nested instances', () => {
    const page = quickValidInstance(contracts.ListNumbersQuery, { limit: '5', starting_after: 'num_3' });
    expect(page).toBeInstanceOf(contracts.ListNumbersQuery);
    expect(page).toEqual({ limit: 5, starting_after: 'num_3' });
    expect(quickValidInstance(contracts.ListNumbersQuery, {})).toEqual({});
    expect(quickValidInstance(contracts.ListNumbersQuery, { limit: '0' })).toBeUndefined();
    expect(quickValidInstance(contracts.ListNumbersQuery, { limit: ['5', '6'] })).toBeUndefined();

    class Inner {
      @IsString()
      name: string;
    }
    class Outer {
      @IsOptional()
      @ValidateNested()
      @Type(() => Inner)
      inner?: Inner;
    }
    const outer = quickValidInstance(Outer, { inner: { name: 'a' } });
    expect(outer).toBeInstanceOf(Outer);
    expect((outer as Outer).inner).toBeInstanceOf(Inner);
    expect(quickValidInstance(Outer, { inner: { name: 1 } })).toBeUndefined();
    expect(quickValidInstance(Outer, { inner: { name: 'a', extra: 1 } })).toBeUndefined();
    expect(quickValidInstance(Outer, { inner: 'a' })).toBeUndefined();
    expect(quickValidInstance(Outer, { inner: [{ name: 'a' }] })).toBeUndefined();
    expect(quickValidInstance(Outer, { inner: null })).toEqual({ inner: null });

    const report = {
      to: '+14155550123',
      caller: '+14155550124',
      duration_sec: 30,
      outcome: 'order_placed',
      transcript: [
        { role: 'caller', text: 'Hello' },
        { role: 'agent', text: 'Hi' },
      ],
    };
    const made = quickValidInstance(contracts.SimulateProviderCallBody, structuredClone(report));
    expect(made).toStrictEqual(fullWay(contracts.SimulateProviderCallBody, structuredClone(report)).instance);
    expect((made as contracts.SimulateProviderCallBody).transcript?.[1]).toBeInstanceOf(contracts.TranscriptTurnBody);
    const badTurn = { ...report, transcript: [{ role: 'caller', text: 'Hello' }, 'Hi'] };
    expect(quickValidInstance(contracts.SimulateProviderCallBody, badTurn)).toBeUndefined();
    expect(fullWay(contracts.SimulateProviderCallBody, badTurn).valid).toBe(false);
  });

  it('leaves unknown keys, even those class-transformer drops, to the full way', () => {
    expect(quickValidInstance(contracts.ListNumbersQuery, { limit: '5', other: 1 })).toBeUndefined();
    expect(quickValidInstance(contracts.ListNumbersQuery, JSON.parse('{"__proto__": {"limit": 1}}'))).toBeUndefined();
    expect(quickValidInstance(contracts.ListNumbersQuery, { constructor: 'x' })).toBeUndefined();
  });

  it('leaves to the full way the rules it does not run itself', () => {
    class Transformed {
      @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
      @IsString()
      @MaxLength(1)
      name: string;
    }
    expect(quickValidInstance(Transformed, { name: ' a ' })).toBeUndefined();
    expect(fullWay(Transformed, { name: ' a ' }).valid).toBe(true);

    class Later {
      @IsString()
      name: string;
    }
    registerDecorator({
      name: 'slowly',
      target: Later,
      propertyName: 'name',
      async: true,
      validator: { validate: () => Promise.resolve(true) },
    });
    expect(quickValidInstance(Later, { name: 'a' })).toBeUndefined();

    class Throwing {
      @IsOptional()
      @Min(0)
      count?: number;
    }
    registerDecorator({
      name: 'throws',
      target: Throwing,
      propertyName: 'count',
      validator: {
        validate: () => {
          throw new Error('boom');
        },
      },
    });
    expect(quickValidInstance(Throwing, { count: 1 })).toBeUndefined();
  });

  it('sees a rule declared after the first check', () => {
    class Grows {
      @IsOptional()
      @IsInt()
      count?: number;
    }
    expect(quickValidInstance(Grows, { count: 1 })).toEqual({ count: 1 });
    Min(2)(Grows.prototype, 'count');
    expect(quickValidInstance(Grows, { count: 1 })).toBeUndefined();
    expect(quickValidInstance(Grows, { count: 2 })).toEqual({ count: 2 });
  });

  it('refuses a property the constructor sets without a rule, as the whitelist does', () => {
    class WithDefault {
      @IsString()
      name: string;

      extra = 1;
    }
    expect(quickValidInstance(WithDefault, { name: 'a' })).toBeUndefined();
    expect(fullWay(WithDefault, { name: 'a' }).valid).toBe(false);
  });
});
