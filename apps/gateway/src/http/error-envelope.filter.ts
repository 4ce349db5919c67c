import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { DEFAULT_RETRY_AFTER_SECONDS, ServiceError, errorEnvelope } from '@switchboard/contracts';
import { OutageLog } from '@switchboard/messaging';
import { isDatabaseUnavailable } from '@switchboard/persistence';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '@switchboard/observability';
import { toHttpError, type HttpErrorAnswer } from './http-error';

/** The gateway's own database unreachable (key lookup, rate limit, idempotency): an outage, not a bug. */
const DATABASE_UNAVAILABLE: HttpErrorAnswer = {
  status: 503,
  body: errorEnvelope('service_unavailable', 'The gateway database is unavailable; retry shortly.'),
  unexpected: false,
};

/** What a 503 says is down, as its outage is logged (the first request's message says which service). */
function outageOf(answer: HttpErrorAnswer, databaseDown: boolean): string {
  if (databaseDown) return 'gateway database';
  return answer.body.error.code === 'provider_unavailable' ? 'telephony provider' : 'a service or NATS';
}

/**
 * Every error, Nest's or ours, leaves as `{ error: { code, message } }` with the matching status. A 503 (NATS,
 * a service or a database down, the provider unavailable) carries `Retry-After` and is logged once per incident,
 * not with a stack trace per request; so does any answer whose error says when to retry (an order's lease).
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly outages: OutageLog;

  constructor(private readonly logger: Logger) {
    this.outages = new OutageLog(logger);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const databaseDown = isDatabaseUnavailable(exception);
    const answer = databaseDown ? DATABASE_UNAVAILABLE : toHttpError(exception);
    const retryAfter =
      exception instanceof ServiceError
        ? exception.retryAfter
        : answer.status === 503
          ? DEFAULT_RETRY_AFTER_SECONDS.service_unavailable
          : undefined;
    if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
    if (answer.status === 503) {
      this.outages.failed(outageOf(answer, databaseDown), exception, {
        request_id: request.id,
        route: request.routeOptions?.url,
        message: answer.body.error.message,
      });
    } else if (answer.unexpected) {
      this.logger.error({ err: exception, request_id: request.id, route: request.routeOptions?.url }, 'request failed');
    }
    void reply.status(answer.status).header('content-type', 'application/json; charset=utf-8').send(answer.body);
  }
}
