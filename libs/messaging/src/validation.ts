import { ValidationPipe, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { describeValidationErrors, ServiceError, type ClassOf } from '@switchboard/contracts';

/**
 * Nest's ValidationPipe as every message is checked on receipt, the way the gateway checks HTTP bodies: unknown
 * fields refused, types checked, and the problems named in an `invalid_request` error worded as at the HTTP edge
 * (docs/adr/0057). `describeValidationErrors` reads each error's target and value to word it; neither is sent.
 */
const validation = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  forbidUnknownValues: false,
  validationError: { target: true, value: true },
  exceptionFactory: (errors) => new ServiceError('invalid_request', describeValidationErrors(errors)),
});

/** The message as an instance of `cls`, or `invalid_request` naming what is wrong with it. */
export async function validateMessage<T extends object>(cls: ClassOf<T>, plain: unknown): Promise<T> {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  }
  return (await validation.transform(plain, { type: 'body', metatype: cls as ArgumentMetadata['metatype'] })) as T;
}

/**
 * True for the argument a handler takes with `@Payload()`: Nest's pipes see it as `body` (its RPC payload shares the
 * HTTP body's number), and `@Ctx()` or a custom one such as `@Caller()` as `custom`.
 */
export function isPayload(metadata: ArgumentMetadata): boolean {
  return metadata.type === 'body';
}

/**
 * Validates a request's payload against its descriptor's class (bound by `@RpcPattern`, so the class is the
 * descriptor's, not whatever the handler's parameter type compiled to).
 */
export class MessageValidationPipe implements PipeTransform {
  constructor(private readonly cls: ClassOf<object>) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    return isPayload(metadata) ? validateMessage(this.cls, value) : value;
  }
}

/** A consumed event whose envelope or payload is not what its descriptor says: retrying cannot fix it. */
export class InvalidEvent extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidEvent';
  }
}

/** Validates a consumed event's `data` against its descriptor's payload class (bound by `@DurableEventPattern`). */
export class EventValidationPipe implements PipeTransform {
  constructor(private readonly cls: ClassOf<object>) {}

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (!isPayload(metadata)) return value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidEvent('The event is not a JSON object.');
    }
    try {
      return { ...value, data: await validateMessage(this.cls, (value as { data?: unknown }).data) };
    } catch (error) {
      throw new InvalidEvent((error as Error).message);
    }
  }
}
