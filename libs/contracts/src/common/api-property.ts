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

/**
 * `@ApiProperty` for the contracts, without loading `@nestjs/swagger` (about 8-14 MiB resident in each service,
 * docs/adr/0093): the options are kept here, in declaration order, and handed to `@nestjs/swagger`'s own decorator
 * by the one app that describes the API, the gateway (`describeContracts`), before it builds its document.
 */
export function ApiProperty(options: ApiPropertyOptions = {}): PropertyDecorator {
  return (target, key) => {
    described.push({ target, key, options });
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
