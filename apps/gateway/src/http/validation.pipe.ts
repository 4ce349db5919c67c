import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { describeValidationErrors, ServiceError } from '@switchboard/contracts';

/**
 * HTTP bodies, params and queries are validated with the same DTOs and the same wording as NATS messages:
 * unknown fields refused, the problems named (docs/adr/0057), 400 `invalid_request`. A body must be a JSON object.
 */
class EnvelopeValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      if (value === undefined) value = {};
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new ServiceError('invalid_request', 'The request body must be a JSON object.');
      }
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new EnvelopeValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: false,
    // The message is built from the failing rules (docs/adr/0057): it needs the object each error was found in,
    // to read its class's rules, and the value, to tell a missing property from a wrong one. Neither is sent.
    validationError: { target: true, value: true },
    exceptionFactory: (errors) => new ServiceError('invalid_request', describeValidationErrors(errors)),
  });
}
