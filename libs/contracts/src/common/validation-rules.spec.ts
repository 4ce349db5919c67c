import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, IsInt, IsString, MetadataStorage, validateSync } from 'class-validator';
import * as contracts from '../index';
import { rememberValidationRules } from './validation-rules';

type Dto = new () => object;

const storage = getMetadataStorage();
const options = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false };
const problems = (cls: Dto, plain: object) =>
  validateSync(plainToInstance(cls, plain), options).map((e) => [e.property, Object.keys(e.constraints ?? {})]);
/** class-validator's own lookup, as it answers without the memo. */
const freshRules = (cls: Dto) =>
  MetadataStorage.prototype.getTargetValidationMetadatas.call(storage, cls, '', false, false, undefined);

describe('rememberValidationRules', () => {
  beforeAll(() => rememberValidationRules());

  it('answers every contract DTO with the rules class-validator finds itself, once per class', () => {
    const dtos = Object.values(contracts).filter(
      (value): value is Dto => typeof value === 'function' && freshRules(value as Dto).length > 0,
    );
    expect(dtos.length).toBeGreaterThan(50);
    for (const dto of dtos) {
      const rules = storage.getTargetValidationMetadatas(dto, '', false, false);
      expect(rules).toEqual(freshRules(dto));
      expect(storage.getTargetValidationMetadatas(dto, '', false, false)).toBe(rules);
      expect(storage.groupByPropertyName(rules)).toBe(storage.groupByPropertyName(rules));
    }
  });

  it('keeps answers apart by options', () => {
    class Grouped {
      @IsString({ groups: ['a'] })
      name!: string;
    }
    expect(storage.getTargetValidationMetadatas(Grouped, '', false, true, ['a'])).toHaveLength(1);
    expect(storage.getTargetValidationMetadatas(Grouped, '', false, true, ['b'])).toHaveLength(0);
  });

  it('forgets its answers when a rule is declared, so a rule added later is checked', () => {
    class Parent {
      @IsString()
      name!: string;
    }
    expect(problems(Parent, { name: 'x', count: 1 })).toEqual([['count', ['whitelistValidation']]]);
    IsInt()(Parent.prototype, 'count');
    expect(problems(Parent, { name: 'x', count: 1 })).toEqual([]);
    expect(problems(Parent, { name: 'x', count: 'one' })).toEqual([['count', ['isInt']]]);

    class Child extends Parent {
      @IsString()
      label!: string;
    }
    expect(problems(Child, { name: 1, count: 1, label: 'y' })).toEqual([['name', ['isString']]]);
  });

  it('wraps the storage once however often it is called', () => {
    const lookUp = storage.getTargetValidationMetadatas;
    rememberValidationRules();
    expect(storage.getTargetValidationMetadatas).toBe(lookUp);
  });
});
