// Every DTO file imports this one first: its decorators (class-transformer's `@Type`) need reflect-metadata loaded.
import 'reflect-metadata';
import type { ApiPropertyOptions } from '@nestjs/swagger';

/** One DTO property's OpenAPI description, as written on the contract. */
interface DescribedProperty {
  target: object;
  key: string | symbol;
  options: ApiPropertyOptions;
}

const described: DescribedProperty[] = [];

/** Every property's options by class prototype, kept after `describeContracts` (the validation table reads them). */
const optionsByTarget = new WeakMap<object, Map<string | symbol, ApiPropertyOptions>>();

/**
 * `@ApiProperty` for the contracts, without loading `@nestjs/swagger` (about 8-14 MiB resident in each service,
 * docs/adr/0099): the options are kept here, in declaration order, and handed to `@nestjs/swagger`'s own decorator
 * by the one app that describes the API, the gateway (`describeContracts`), before it builds its document.
 */
export function ApiProperty(options: ApiPropertyOptions = {}): PropertyDecorator {
  return (target, key) => {
    described.push({ target, key, options });
    const known = optionsByTarget.get(target) ?? new Map<string | symbol, ApiPropertyOptions>();
    optionsByTarget.set(target, known.set(key, options));
  };
}

/** `@ApiPropertyOptional`: `@ApiProperty` with `required: false`. */
export function ApiPropertyOptional(options: ApiPropertyOptions = {}): PropertyDecorator {
  return ApiProperty({ ...options, required: false } as ApiPropertyOptions);
}

/**
 * Applies every contract property's description with `decorate` (`@nestjs/swagger`'s `ApiProperty`), in the
 * order they were declared. Each is applied once, however often this is called.
 */
export function describeContracts(decorate: (options: ApiPropertyOptions) => PropertyDecorator): void {
  for (const { target, key, options } of described.splice(0)) decorate(options)(target, key);
}

/**
 * The `@ApiProperty` options a class declares for a property, its own or inherited; `undefined` for a property the API
 * does not describe (a field our services set: an event's, a command's own).
 */
export function apiPropertyOptions(cls: abstract new () => object, key: string): ApiPropertyOptions | undefined {
  for (let target: unknown = cls.prototype; target !== null && target !== Object.prototype;) {
    const options = optionsByTarget.get(target as object)?.get(key);
    if (options) return options;
    target = Object.getPrototypeOf(target);
  }
  return undefined;
}
