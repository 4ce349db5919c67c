import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_STATUS, errorEnvelope, type ErrorCode } from '@switchboard/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** Longer path parameters are refused by the router (414); no id of this API comes near it. */
export const MAX_PARAM_LENGTH = 200;

/**
 * The refusals Fastify's router makes before any hook or route runs (it would answer them with its own JSON),
 * in the error envelope. Passed to Fastify as `frameworkErrors`.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [code, message] = frameworkRefusal(error.code);
  void reply
    .status(ERROR_STATUS[code])
    .header('X-Request-Id', request.id)
    .header('Cache-Control', 'no-store')
    .header('content-type', 'application/json; charset=utf-8')
    .send(errorEnvelope(code, message));
}

function frameworkRefusal(fastifyCode: string): [ErrorCode, string] {
  switch (fastifyCode) {
    case 'FST_ERR_BAD_URL':
      return ['invalid_request', 'The URL path is not valid: a %-escape is malformed or does not decode to UTF-8.'];
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return ['uri_too_long', `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`];
    default:
      return ['invalid_request', 'The request could not be routed.'];
  }
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (framing it cannot trust, headers over 16 KiB,
 * a request not received in time). Fastify would answer with its own JSON; this answers with the envelope, names
 * the problem, and closes the connection: after a framing error the rest of the stream cannot be read safely.
 * Passed to Fastify as `clientErrorHandler`.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = clientRefusal(error.code ?? '');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(errorEnvelope(code, message));
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

function clientRefusal(parserCode: string): [number, ErrorCode, string] {
  const invalid = (message: string): [number, ErrorCode, string] => [400, 'invalid_request', message];
  switch (parserCode) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request_timeout', 'The request was not received in full in time; the connection is closed.'];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'headers_too_large', 'The request line and headers are larger than 16 KiB.'];
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return invalid('Content-Length was sent more than once; send it once.');
    case 'HPE_INVALID_CONTENT_LENGTH':
      return invalid('Content-Length must be one non-negative number, and not sent together with Transfer-Encoding.');
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return invalid('Transfer-Encoding must be chunked, sent once, and not together with Content-Length.');
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_STRICT':
      return invalid('The chunked body is malformed.');
    case 'HPE_INVALID_METHOD':
      return invalid('The HTTP method is not valid.');
    case 'HPE_INVALID_URL':
      return invalid('The request target is not a valid URL.');
    case 'HPE_INVALID_VERSION':
    case 'HPE_PAUSED_H2_UPGRADE':
      return invalid(
        'The request line is malformed, or names an HTTP version other than 1.0 and 1.1 (the only ones served here).',
      );
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_CR_EXPECTED':
    case 'HPE_LF_EXPECTED':
      return invalid('A request header is malformed.');
    default:
      return invalid(`The request is not valid HTTP/1.1${parserCode ? ` (${parserCode})` : ''}.`);
  }
}
