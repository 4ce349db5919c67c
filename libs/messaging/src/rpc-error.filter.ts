import { Catch, Inject, Injectable, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { DEFAULT_RETRY_AFTER_SECONDS, ServiceError, type RpcErrorBody, type ServiceName } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import { isDatabaseUnavailable } from '@switchboard/persistence';
import { throwError, type Observable } from 'rxjs';
import { OutageLog } from './outage-log';
import { RPC_OUTAGES, SERVICE_NAME } from './tokens';

/**
 * What a request handler's failure answers (Nest replies with it as the message's `err`; `RpcClient` throws it as
 * the `ServiceError` it names):
 * - a `ServiceError` (validation's `invalid_request` included): its code, message and retry delay;
 * - the database unreachable: `service_unavailable` (503, retryable), not `internal_error`, with the outage logged
 *   once per incident (docs/adr/0055-the-gateway-edge.md);
 * - anything else: logged with its stack, answered `internal_error` without a word of it.
 * Bound to every handler by `@RpcPattern`; the active span (the server's, `NatsRpcServer`) gets the error code.
 */
@Catch()
@Injectable()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_NAME) private readonly service: ServiceName,
    @Inject(RPC_OUTAGES) private readonly outages: OutageLog,
  ) {}

  catch(error: unknown, host: ArgumentsHost): Observable<never> {
    const refusal = this.refusal(error, host);
    return throwError(() => refusal);
  }

  private refusal(error: unknown, host: ArgumentsHost): RpcErrorBody {
    const span = trace.getActiveSpan();
    if (error instanceof ServiceError) {
      span?.setAttribute('switchboard.error_code', error.code);
      return {
        ...error.toBody(),
        ...(error.retryAfterSeconds !== undefined ? { retry_after_seconds: error.retryAfterSeconds } : {}),
      };
    }
    const subject = host.switchToRpc().getContext<NatsContext>().getSubject();
    if (isDatabaseUnavailable(error)) {
      span?.setAttribute('switchboard.error_code', 'service_unavailable');
      span?.setStatus({ code: SpanStatusCode.ERROR, message: 'database unavailable' });
      this.outages.failed('database', error, { service: this.service, subject });
      return {
        code: 'service_unavailable',
        message: `The ${this.service} database is unavailable; retry shortly.`,
        retry_after_seconds: DEFAULT_RETRY_AFTER_SECONDS.service_unavailable,
      };
    }
    span?.recordException(error as Error);
    span?.setStatus({ code: SpanStatusCode.ERROR });
    this.logger.error({ err: error, subject }, 'rpc handler failed');
    return { code: 'internal_error', message: 'An unexpected error occurred.' };
  }
}
