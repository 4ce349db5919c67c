import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { ServiceError, type ClassOf } from '@switchboard/contracts';

/**
 * Validates a message the way HTTP bodies are validated: unknown fields refused, types checked, and the first
 * problem named in an `invalid_request` error. Used on every RPC request and every consumed event.
 */
export async function validateMessage<T extends object>(cls: ClassOf<T>, plain: unknown): Promise<T> {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  }
  const instance = plainToInstance(cls as new () => T, plain);
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (errors.length > 0) throw new ServiceError('invalid_request', describeValidationErrors(errors));
  return instance;
}

export function describeValidationErrors(errors: ValidationError[], parent = ''): string {
  const messages: string[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      const constraint = Object.entries(error.constraints)[0];
      if (constraint[0] === 'whitelistValidation') messages.push(`${path} is not a known field`);
      else messages.push(constraint[1].startsWith(error.property) ? `${parent ? parent + '.' : ''}${constraint[1]}` : `${path}: ${constraint[1]}`);
    }
    if (error.children?.length) messages.push(describeValidationErrors(error.children, path));
  }
  return messages.filter(Boolean).join('; ');
}
