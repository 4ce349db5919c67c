import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { describeValidationErrors, ServiceError, type ClassOf } from '@switchboard/contracts';

/**
 * Validates a message the way HTTP bodies are validated: unknown fields refused, types checked, and the problems
 * named in an `invalid_request` error worded as at the HTTP edge (docs/adr/0058). Used on every RPC request and
 * every consumed event.
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
