import { ServiceError } from '@switchboard/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_JSON_DEPTH, describeUnusableBodyText, findUnusableText, jsonNestingExceeds } from './hostile-input';

type Done = (error: Error | null, body?: unknown) => void;

/**
 * The gateway's `application/json` parser: Fastify's own (which refuses `__proto__` and `constructor.prototype`
 * keys), behind a nesting limit, and followed by the NUL and surrogate check of every string in the body
 * (hostile-input.ts). An empty body on a DELETE is no body: many clients send `Content-Type: application/json` on
 * every request, and no DELETE route takes a body.
 */
export function createJsonBodyParser(
  fastify: FastifyInstance,
): (request: FastifyRequest, body: Buffer | string, done: Done) => void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim().length === 0 && request.method === 'DELETE') return done(null, undefined);
    if (jsonNestingExceeds(text)) {
      return done(
        new ServiceError(
          'invalid_request',
          `The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep.`,
        ),
      );
    }
    // Fastify's parser answers through `done` (its promise-typed return is unused).
    void parseJson(request, text, (error: Error | null, parsed?: unknown) => {
      if (error) return done(error);
      const unusable = findUnusableText(parsed);
      if (unusable) return done(new ServiceError('invalid_request', describeUnusableBodyText(unusable)));
      done(null, parsed);
    });
  };
}
