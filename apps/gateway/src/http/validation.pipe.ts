import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import { describeValidationErrors } from '@switchboard/messaging';

/**
 * HTTP bodies, params and queries are validated with the same DTOs and the same wording as NATS messages:
 * unknown fields refused, the problems named, 400 `invalid_request`. A body must be a JSON object.
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
    exceptionFactory: (errors) => new ServiceError('invalid_request', describeValidationErrors(errors)),
  });
}
