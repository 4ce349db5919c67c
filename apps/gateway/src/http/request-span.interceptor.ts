import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
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
    const active = trace.setSpan(parent, span);
    return new Observable((subscriber) =>
      context.with(active, () =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error) => {
            span.setAttribute('http.response.status_code', (error as { status?: number })?.status ?? 500);
            if (((error as { status?: number })?.status ?? 500) >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
            subscriber.error(error);
          },
          complete: () => {
            span.setAttribute('http.response.status_code', reply.statusCode);
            span.end();
            subscriber.complete();
          },
        }),
      ),
    );
  }
}
