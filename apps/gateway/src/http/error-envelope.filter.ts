import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { toHttpError } from './http-error';

/** Every error, Nest's or ours, leaves as `{ error: { code, message } }` with the matching status. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const answer = toHttpError(exception);
    if (answer.unexpected) this.logger.error({ err: exception, request_id: request.id, route: request.routeOptions?.url }, 'request failed');
    void reply.status(answer.status).header('content-type', 'application/json; charset=utf-8').send(answer.body);
  }
}
