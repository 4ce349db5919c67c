import { Type } from 'class-transformer';
import type { MetadataStorage as TransformerMetadataStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, ValidationTypes, type ValidationArguments } from 'class-validator';
import { rememberValidationRules, validationRulesGeneration } from './validation-rules';

// class-transformer's rules (`@Type`, `@Transform`, `@Expose`, `@Exclude`), which its package does not export.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: TransformerMetadataStorage;
};

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type Dto = new () => object;
type Validate = (value: unknown, args: ValidationArguments) => unknown;

/** One class-validator rule of a property, with the validators class-validator would call for it. */
interface Check {
  metadata: ValidationMetadata;
  validators: Validate[];
}

/** What class-transformer does to a property's value and what class-validator checks of it. */
interface PropertyPlan {
  name: string;
  /** `@IsOptional`, `@ValidateIf`: the property's rules are skipped unless all of them hold. */
  conditions: ValidationMetadata[];
  /** `@IsDefined` and every other rule that calls a validator. */
  checks: Check[];
  /** `@Type(() => Number | String | Boolean)`: the value converted as class-transformer converts it. */
  convert?: (value: unknown) => unknown;
  /** `@ValidateNested()` with `@Type(() => SomeClass)`: an object made an instance of that class and checked. */
  nested?: Dto;
  /** The property is declared an array (`Type[]`): class-transformer makes an array of instances of `nested`. */
  nestedInArray?: boolean;
}

interface ClassPlan {
  generation: number;
  rules: ValidationMetadata[];
  properties: PropertyPlan[] | undefined;
  byName: Map<string, PropertyPlan>;
}

const PRIMITIVE_TYPES = new Map<unknown, (value: unknown) => unknown>([
  [Number, Number],
  [String, String],
  [Boolean, Boolean],
]);
/** Types class-transformer builds in its own ways (or not at all): a property typed with one is left to it. */
const BUILT_IN_TYPES = new Set<unknown>([Object, Array, Date, Map, Set, Promise, Buffer, Symbol, BigInt]);

const plans = new WeakMap<Dto, ClassPlan>();

/**
 * Whether the storage read here is the one `@Type` and `@Transform` write to. A bundle that took class-transformer's
 * ES module build for the decorators would hold a second storage, and rules this could not see would be skipped: then
 * every object takes the full way.
 */
const SEES_TRANSFORMER_RULES = (() => {
  class Probe {
    value?: number;
  }
  Type(() => Number)(Probe.prototype, 'value');
  return defaultMetadataStorage.findTypeMetadata(Probe, 'value') !== undefined;
})();

/**
 * The instance `plainToInstance(cls, plain)` makes when class-validator (whitelist, non-whitelisted properties
 * forbidden, unknown values allowed: libs/messaging validation.ts, the gateway's pipe) finds no problem with it, or
 * `undefined` when it would find one or when this is not sure. Callers then take the full way (class-transformer and
 * class-validator), which names the problems, so a request is answered the same either way.
 *
 * Why: on every RPC, every consumed event and every request the full way builds error objects for every property,
 * promises and metadata lookups per key, 2-3% of each service's CPU (docs/performance.md, seventeenth pass). This calls
 * the very validators class-validator would call, with the same arguments, from a plan made once per class. Anything
 * the plan does not cover is left to the full way: `@Transform`, `@Expose`/`@Exclude`, discriminators, promise and
 * asynchronous rules, and values other than primitives, arrays of them, nested objects and arrays of those.
 */
export function quickValidInstance<T extends object>(cls: new () => T, plain: object): T | undefined {
  if (!SEES_TRANSFORMER_RULES) return undefined;
  try {
    return build(cls, plain) as T | undefined;
  } catch {
    // A validator that throws is left to the full way, which throws or answers as it always has.
    return undefined;
  }
}

function build(cls: Dto, plain: object): object | undefined {
  const plan = planOf(cls);
  if (!plan.properties) return undefined;
  const instance = new cls() as Record<string, unknown>;
  const source = plain as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    // An unknown key is refused by the whitelist (or, `__proto__` and `constructor`, dropped): the full way says which.
    const property = plan.byName.get(key);
    if (!property) return undefined;
    const value = copied(property, source[key]);
    if (value === NOT_SURE) return undefined;
    instance[key] = value;
  }
  // A property the constructor set without a rule is refused by the whitelist too.
  for (const key of Object.keys(instance)) if (!plan.byName.has(key)) return undefined;
  for (const property of plan.properties) if (!holds(instance, property)) return undefined;
  return instance;
}

const NOT_SURE = Symbol('not sure');

/** The property's value as class-transformer would set it on the instance. */
function copied(property: PropertyPlan, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value !== 'object') {
    // Not an object where a nested one is validated: a problem, which the full way names.
    if (property.nested) return NOT_SURE;
    return property.convert ? property.convert(value) : value;
  }
  if (Array.isArray(value)) {
    if (property.nested) return property.nestedInArray ? nestedInstances(property.nested, value) : NOT_SURE;
    // Copied element by element; elements that are objects, or converted by `@Type`, are left to the full way.
    if (property.convert) return NOT_SURE;
    for (const element of value) if (element !== null && typeof element === 'object') return NOT_SURE;
    return value.slice();
  }
  if (!property.nested) return NOT_SURE;
  return build(property.nested, value) ?? NOT_SURE;
}

/** An array of nested objects, each made an instance and checked (class-validator checks every element). */
function nestedInstances(cls: Dto, elements: unknown[]): object[] | typeof NOT_SURE {
  const instances: object[] = [];
  for (const element of elements) {
    if (element === null || typeof element !== 'object' || Array.isArray(element)) return NOT_SURE;
    const instance = build(cls, element);
    if (!instance) return NOT_SURE;
    instances.push(instance);
  }
  return instances;
}

/** Whether class-validator finds no problem with the property (ValidationExecutor.performValidations). */
function holds(object: Record<string, unknown>, property: PropertyPlan): boolean {
  const value = object[property.name];
  for (const condition of property.conditions) {
    if (!(condition.constraints[0] as (object: object, value: unknown) => boolean)(object, value)) return true;
  }
  for (const { metadata, validators } of property.checks) {
    if (metadata.validateIf && !metadata.validateIf(object, value)) continue;
    const args: ValidationArguments = {
      targetName: object.constructor.name,
      property: metadata.propertyName,
      object,
      value,
      constraints: metadata.constraints,
    };
    for (const validate of validators) {
      const each = metadata.each && Array.isArray(value);
      const valid = each ? value.every((element) => settled(validate(element, args))) : settled(validate(value, args));
      if (!valid) return false;
    }
  }
  // A nested object was checked when it was built; `null` in its place is a problem, `undefined` is not.
  return !(property.nested && value === null);
}

/** A validator's answer; one that is a promise is not waited for here. */
function settled(answer: unknown): boolean {
  if (answer instanceof Promise) throw new Error('asynchronous rule');
  return Boolean(answer);
}

// Rules are remembered per class, and a declared rule is counted (validation-rules.ts).
rememberValidationRules();

/** The class's plan, made again whenever a rule was declared since (a class declared later, a mapped type). */
function planOf(cls: Dto): ClassPlan {
  const generation = validationRulesGeneration();
  const known = plans.get(cls);
  if (known?.generation === generation) return known;
  const storage = getMetadataStorage();
  // The arguments class-validator's own `validate` looks the rules up with.
  const rules = storage.getTargetValidationMetadatas(cls, undefined as unknown as string, false, false, undefined);
  const plan = known?.rules === rules ? { ...known, generation } : makePlan(storage, cls, rules, generation);
  plans.set(cls, plan);
  return plan;
}

function makePlan(storage: MetadataStorage, cls: Dto, rules: ValidationMetadata[], generation: number): ClassPlan {
  const byName = new Map<string, PropertyPlan>();
  const unsupported = { generation, rules, properties: undefined, byName };
  const transformer = defaultMetadataStorage;
  if (
    transformer.getStrategy(cls) !== 'none' ||
    transformer.getExposedMetadatas(cls).length > 0 ||
    transformer.getExcludedMetadatas(cls).length > 0
  ) {
    return unsupported;
  }
  for (const [name, metadatas] of Object.entries(storage.groupByPropertyName(rules))) {
    const property = propertyPlan(storage, cls, name, metadatas);
    if (!property) return unsupported;
    byName.set(name, property);
  }
  return { generation, rules, properties: [...byName.values()], byName };
}

function propertyPlan(
  storage: MetadataStorage,
  cls: Dto,
  name: string,
  metadatas: ValidationMetadata[],
): PropertyPlan | undefined {
  // A method or accessor of that name: class-transformer skips the key rather than set it.
  if (name in cls.prototype) return undefined;
  if (defaultMetadataStorage.findTransformMetadatas(cls, name, 1 /* PLAIN_TO_CLASS */).length > 0) return undefined;
  const property: PropertyPlan = { name, conditions: [], checks: [] };
  let validatesNested = false;
  for (const metadata of metadatas) {
    switch (metadata.type) {
      case ValidationTypes.WHITELIST:
        break;
      case ValidationTypes.CONDITIONAL_VALIDATION:
        property.conditions.push(metadata);
        break;
      case ValidationTypes.NESTED_VALIDATION:
        validatesNested = true;
        break;
      case ValidationTypes.IS_DEFINED:
      case ValidationTypes.CUSTOM_VALIDATION: {
        const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
        if (constraints.length === 0 || constraints.some((constraint) => constraint.async)) return undefined;
        const validators = constraints.map((constraint) => {
          const instance = constraint.instance as { validate: Validate };
          return instance.validate.bind(instance);
        });
        property.checks.push({ metadata, validators });
        break;
      }
      default:
        return undefined;
    }
  }
  const typed = defaultMetadataStorage.findTypeMetadata(cls, name);
  if (typed) {
    if (typed.options?.discriminator || typed.typeFunction.length > 0) return undefined;
    const type = typed.typeFunction();
    const convert = PRIMITIVE_TYPES.get(type);
    if (convert) property.convert = convert;
    else if (typeof type === 'function' && !BUILT_IN_TYPES.has(type) && validatesNested) {
      property.nested = type as Dto;
      property.nestedInArray = typed.reflectedType === Array;
    } else return undefined;
  }
  // Nested validation of an object class-transformer did not make an instance of checks nothing: left to the full way.
  if (validatesNested && !property.nested) return undefined;
  return property;
}
