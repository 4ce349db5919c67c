import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { SpanKind, SpanStatusCode, context, propagation, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';

const tracer = trace.getTracer('switchboard.gateway');

/**
 * One span per routed request, named by its route, active while the handler runs, so the NATS request and the
 * service's work join the caller's trace. It continues an incoming `traceparent` (or the HTTP instrumentation's
 * span where OpenTelemetry's Node instrumentation is loaded).
 */
@Injectable()
export class RequestSpanInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = ctx.switchToHttp().getRequest<FastifyRequest>();
    const reply = ctx.switchToHttp().getResponse<FastifyReply>();
    const { span, active } = startRequestSpan(request);
    return new Observable((subscriber) =>
      context.with(active, () =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error) => {
            endRequestSpan(span, { error });
            subscriber.error(error);
          },
          complete: () => {
            endRequestSpan(span, { status: reply.statusCode });
            subscriber.complete();
          },
        }),
      ),
    );
  }
}

/** The request's span, and the context in which its handler runs (also for routes outside Nest: docs/adr/0096). */
export function startRequestSpan(request: FastifyRequest): { span: Span; active: Context } {
  const route = request.routeOptions?.url ?? 'unknown';
  const parent = trace.getActiveSpan() ? context.active() : propagation.extract(context.active(), request.headers);
  const span = tracer.startSpan(
    `${request.method} ${route}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        'http.route': route,
        'switchboard.request_id': String(request.id),
      },
    },
    parent,
  );
  return { span, active: trace.setSpan(parent, span) };
}

/** Ends the span with the answer's status: the reply's, or the error's (500 when it has none, then an error span). */
export function endRequestSpan(span: Span, outcome: { status: number } | { error: unknown }): void {
  const status = 'status' in outcome ? outcome.status : ((outcome.error as { status?: number })?.status ?? 500);
  span.setAttribute('http.response.status_code', status);
  if ('error' in outcome && status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
