import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { ServiceError } from '@switchboard/contracts';
import { toHttpError } from './http-error';

describe('toHttpError', () => {
  it('answers a ServiceError with its code and status', () => {
    expect(toHttpError(new ServiceError('number_limit', 'too many'))).toEqual({
      status: 429,
      body: { error: { code: 'number_limit', message: 'too many' } },
      unexpected: false,
    });
  });

  it("maps Fastify's body errors, as Nest hands them over, to the envelope", () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      statusCode: 413,
    });
    expect(toHttpError(new HttpException('x', 413, { cause: tooLarge })).body.error.code).toBe('payload_too_large');
    const badJson = Object.assign(new SyntaxError('Unexpected end'), { statusCode: 400 });
    expect(toHttpError(new HttpException('x', 400, { cause: badJson })).body.error).toEqual({
      code: 'invalid_request',
      message: 'The request body is not valid JSON.',
    });
    const mediaType = Object.assign(new Error('Unsupported Media Type'), {
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      statusCode: 415,
    });
    expect(toHttpError(new HttpException('x', 415, { cause: mediaType }))).toMatchObject({
      status: 415,
      body: { error: { code: 'unsupported_media_type' } },
    });
  });

  it("answers Nest's not-found with not_found and keeps other 4xx as client errors", () => {
    expect(toHttpError(new NotFoundException('Cannot GET /v1/x'))).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
    expect(toHttpError(new BadRequestException())).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    });
  });

  it('hides anything unexpected behind 500 internal_error and flags it for the log', () => {
    const answer = toHttpError(new TypeError('cannot read x of undefined'));
    expect(answer).toEqual({
      status: 500,
      body: { error: { code: 'internal_error', message: 'An unexpected error occurred.' } },
      unexpected: true,
    });
  });
});
