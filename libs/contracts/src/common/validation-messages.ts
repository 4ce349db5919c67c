import { getMetadataStorage, ValidationTypes, type ValidationError } from 'class-validator';

/**
 * What a 400 `invalid_request` says about a request that failed its DTO (docs/adr/0057): one problem per
 * property, named by its path (`transcript[2].role`): unknown fields first, then the properties in the order the
 * DTO declares them (a base class's first). For each property the message is built from the failing
 * constraint with the highest priority, so it names the real problem whatever the order of the decorators:
 *
 *   1. an unknown property: `<path> is not a known field`;
 *   2. a missing required property: `<path> is required`;
 *   3. a value of the wrong type: `<path> must be a string|an integer|a number|a boolean|an array|an object`;
 *   4. else the first failing constraint in declaration order (top to bottom), in the words below, or in the
 *      DTO's own `message` when it gives one.
 *
 * It reads the rules from class-validator's metadata, so a DTO added later is covered without editing it.
 */

/** The most problems one message lists; the rest are counted. A body of 500 bad turns must not echo 500 lines. */
export const MAX_PROBLEMS_NAMED = 10;

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

const WHITELIST = ValidationTypes.WHITELIST;
const NESTED = ValidationTypes.NESTED_VALIDATION;

/** Type checks: reported before any range, length or format problem of the same property. */
const TYPE_NOUNS: Readonly<Record<string, string>> = {
  isString: 'a string',
  isInt: 'an integer',
  isNumber: 'a number',
  isBoolean: 'a boolean',
  isArray: 'an array',
  isObject: 'an object',
};

/** The wording of class-validator's own constraints whose default message is misleading or unclear. */
const WORDING: Readonly<Record<string, (constraints: readonly unknown[]) => string>> = {
  isDefined: () => 'is required',
  isNotEmpty: () => 'must not be empty',
  arrayNotEmpty: () => 'must not be empty',
  maxLength: ([max]) => `must be at most ${String(max)} characters`,
  minLength: ([min]) => `must be at least ${String(min)} characters`,
  isLength: ([min, max]) =>
    max === undefined
      ? `must be at least ${String(min)} characters`
      : `must be ${String(min)} to ${(max as number).toString()} characters`,
  max: ([max]) => `must be at most ${String(max)}`,
  min: ([min]) => `must be at least ${String(min)}`,
  isPositive: () => 'must be greater than 0',
  isIn: ([values]) => `must be one of ${(values as readonly unknown[]).map(String).join(', ')}`,
  isEnum: ([, values]) => `must be one of ${(values as readonly unknown[]).map(String).join(', ')}`,
  arrayMaxSize: ([max]) => `must have at most ${String(max)} items`,
  arrayMinSize: ([min]) => `must have at least ${String(min)} items`,
  matches: ([pattern]) => `must match ${pattern instanceof RegExp ? String(pattern) : `/${String(pattern)}/`}`,
  isIso8601: () => 'must be an ISO 8601 date-time',
  isEmail: () => 'must be an email address',
  isUrl: () => 'must be a URL',
};

/** The whole message: the problems joined with `; `, at most {@link MAX_PROBLEMS_NAMED} of them named. */
export function describeValidationErrors(errors: readonly ValidationError[]): string {
  const problems = validationProblems(errors);
  if (problems.length <= MAX_PROBLEMS_NAMED) return problems.join('; ');
  const more = problems.length - MAX_PROBLEMS_NAMED;
  return `${problems.slice(0, MAX_PROBLEMS_NAMED).join('; ')}; and ${more} more problem${more === 1 ? '' : 's'}`;
}

/** One sentence per property that failed, e.g. `location_id is required`, `transcript[2].role is required`. */
export function validationProblems(errors: readonly ValidationError[], parent = ''): string[] {
  const problems: string[] = [];
  for (const error of inDeclarationOrder(errors)) {
    const path = pathOf(parent, error.property);
    if (error.constraints && Object.keys(error.constraints).length > 0) problems.push(describeProperty(error, path));
    else if (error.children?.length) problems.push(...validationProblems(error.children, path));
  }
  return problems;
}

/**
 * Unknown fields first, then the properties as the DTO declares them, a base class's before its subclass's
 * (class-validator reports a subclass's own properties first: `description` before the inherited `location_id`).
 */
function inDeclarationOrder(errors: readonly ValidationError[]): ValidationError[] {
  const { rank } = classRules(errors[0]?.target?.constructor);
  const rankOf = (error: ValidationError) =>
    error.constraints && WHITELIST in error.constraints ? -1 : (rank.get(error.property) ?? rank.size);
  return [...errors].sort((a, b) => rankOf(a) - rankOf(b));
}

interface ClassRules {
  /** Each property's rules, as class-validator runs them. */
  byProperty: Map<string, ValidationMetadata[]>;
  /** Each property's place in declaration order, a base class's properties first. */
  rank: Map<string, number>;
}

const NO_RULES: ClassRules = { byProperty: new Map(), rank: new Map() };

/**
 * A class's rules, read once: decorators register them when the class is defined, so they never change after.
 * Collecting them scans class-validator's whole store; a body of 500 bad items would do it 500 times.
 */
const rulesCache = new WeakMap<object, ClassRules>();

function classRules(owner: unknown): ClassRules {
  if (typeof owner !== 'function' || owner === Object || owner === Array) return NO_RULES;
  const cached = rulesCache.get(owner);
  if (cached) return cached;
  const rules = getMetadataStorage().getTargetValidationMetadatas(owner, '', false, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const rule of rules) byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
  const declared = rules
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => ancestorCount(a.rule.target) - ancestorCount(b.rule.target) || a.index - b.index);
  const rank = new Map<string, number>();
  for (const { rule } of declared) if (!rank.has(rule.propertyName)) rank.set(rule.propertyName, rank.size);
  const found = { byProperty, rank };
  rulesCache.set(owner, found);
  return found;
}

/** How many classes a class extends: a base class's rules sort before its subclass's. */
function ancestorCount(cls: unknown): number {
  let count = 0;
  let base: unknown = Object.getPrototypeOf(cls);
  while (typeof base === 'function' && base !== Function.prototype) {
    count++;
    base = Object.getPrototypeOf(base);
  }
  return count;
}

function pathOf(parent: string, property: string): string {
  if (!parent) return property;
  return /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
}

function describeProperty(error: ValidationError, path: string): string {
  const constraints = error.constraints ?? {};
  if (WHITELIST in constraints) return `${path} is not a known field`;
  if ('value' in error && error.value === undefined) return `${path} is required`;

  const rules = rulesOf(error);
  // Declaration order: decorators run bottom-up, so class-validator lists a property's rules (and its failures)
  // from the last decorator to the first.
  const failing = Object.keys(constraints).reverse();
  const typeCheck = failing.find((name) => name in TYPE_NOUNS || name === NESTED);
  const chosen = typeCheck ?? failing[0];
  const rule = rules.find((candidate) => ruleName(candidate) === chosen);

  // @ValidateNested sets a message of its own ("nested property ... must be either object or array").
  if (chosen === NESTED) return `${path} must be ${expectsArray(rules) ? 'an array' : 'an object'}`;
  const target = itemPath(error, rule, path);
  if (rule?.message !== undefined) return reRoot(constraints[chosen], error.property, target);
  if (chosen in TYPE_NOUNS) return `${target} must be ${TYPE_NOUNS[chosen]}`;
  // Without the rule (an error built by hand, or without its target) the bounds are unknown: say what it says.
  const wording = WORDING[chosen];
  if (wording && rule) return `${target} ${wording(rule.constraints ?? [])}`;
  return reRoot(constraints[chosen].replace(/^each value in /, ''), error.property, target);
}

/** The rules declared for this property on the class of the object it was found in (none for array items). */
function rulesOf(error: ValidationError): ValidationMetadata[] {
  return classRules(error.target?.constructor).byProperty.get(error.property) ?? [];
}

function ruleName(rule: ValidationMetadata): string {
  return rule.name ?? rule.type;
}

function expectsArray(rules: readonly ValidationMetadata[]): boolean {
  return rules.some((rule) => (rule.type === NESTED && rule.each) || ruleName(rule) === 'isArray');
}

/** For a rule checked on each item (`{ each: true }`), the path of the first item that fails it: `ip_allowlist[3]`. */
function itemPath(error: ValidationError, rule: ValidationMetadata | undefined, path: string): string {
  if (!rule?.each || !Array.isArray(error.value) || !rule.constraintCls) return path;
  const [constraint] = getMetadataStorage().getTargetValidatorConstraints(rule.constraintCls);
  if (!constraint) return path;
  const items: unknown[] = error.value;
  const index = items.findIndex((item) => {
    const valid = constraint.instance.validate(item, {
      targetName: error.target?.constructor.name ?? '',
      property: error.property,
      object: error.target ?? {},
      value: item,
      constraints: rule.constraints,
    });
    return valid === false;
  });
  return index < 0 ? path : `${path}[${index}]`;
}

/** A DTO's own message starts with the property name; the path replaces it (`role` becomes `transcript[2].role`). */
function reRoot(message: string, property: string, path: string): string {
  if (message.startsWith(`${property} `)) return `${path}${message.slice(property.length)}`;
  return `${path}: ${message}`;
}
