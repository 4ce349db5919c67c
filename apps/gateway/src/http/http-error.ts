import { HttpException } from '@nestjs/common';
import {
  ERROR_STATUS,
  ServiceError,
  errorEnvelope,
  isErrorCode,
  type ErrorCode,
  type ErrorEnvelope,
} from '@switchboard/contracts';

/** Fastify's own errors (raised before a route runs) and what the public API answers for each. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'The request body is larger than the limit.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_request', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_request', message: 'The request body is empty; send a JSON object.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'Send the body as application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_request', message: 'Content-Length does not match the body.' },
  FST_ERR_BAD_URL: { code: 'invalid_request', message: 'The URL is malformed.' },
  FST_ERR_ASYNC_CONSTRAINT: { code: 'invalid_request', message: 'The request could not be routed.' },
};

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

export interface HttpErrorAnswer {
  status: number;
  body: ErrorEnvelope;
  /** True when the error is a bug or an outage worth logging with its stack. */
  unexpected: boolean;
}

/** Turns anything thrown while answering a request into the status and envelope the API promises. */
export function toHttpError(error: unknown): HttpErrorAnswer {
  if (error instanceof ServiceError) {
    return {
      status: error.status,
      body: errorEnvelope(error.code, error.message),
      unexpected: error.status >= 500 && error.code !== 'provider_unavailable',
    };
  }
  // Nest hands Fastify's own errors (bad JSON, body too large) over as an HttpException caused by them.
  const cause = error instanceof HttpException ? error.cause : error;
  const fastifyCode = (cause as { code?: string })?.code;
  if (fastifyCode && FASTIFY_ERRORS[fastifyCode]) {
    const known = FASTIFY_ERRORS[fastifyCode];
    return { status: ERROR_STATUS[known.code], body: errorEnvelope(known.code, known.message), unexpected: false };
  }
  if (cause instanceof SyntaxError) {
    return {
      status: 400,
      body: errorEnvelope('invalid_request', 'The request body is not valid JSON.'),
      unexpected: false,
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse() as { code?: unknown; message?: unknown } | string;
    const code: ErrorCode =
      typeof response === 'object' && isErrorCode(response.code)
        ? response.code
        : (STATUS_CODES[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request'));
    const message =
      typeof response === 'object' && typeof response.message === 'string' ? response.message : defaultMessage(code);
    return { status, body: errorEnvelope(code, message), unexpected: status >= 500 };
  }
  const statusCode = (error as { statusCode?: number })?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const code = STATUS_CODES[statusCode] ?? 'invalid_request';
    return { status: statusCode, body: errorEnvelope(code, defaultMessage(code)), unexpected: false };
  }
  return { status: 500, body: errorEnvelope('internal_error', 'An unexpected error occurred.'), unexpected: true };
}

function defaultMessage(code: ErrorCode): string {
  switch (code) {
    case 'not_found':
      return 'No such resource.';
    case 'unauthorized':
      return 'A valid API key is required.';
    case 'method_not_allowed':
      return 'This method is not allowed on this path.';
    default:
      return code.replace(/_/g, ' ');
  }
}
