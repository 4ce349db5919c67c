import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs, one line an event, carrying the active trace and span ids so a log line leads to its
 * trace. Secrets never reach a log: known secret-bearing paths are redacted at the source.
 */
export const REDACTED_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'key',
  '*.key',
  'webhook_secret',
  '*.webhook_secret',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'claimant_phone',
  '*.claimant_phone',
  'proof_note',
  '*.proof_note',
];

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? defaultLevel()): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  });
}

function defaultLevel(): string {
  if (process.env.NODE_ENV === 'test') return 'silent';
  return 'info';
}

export type { Logger };

/**
 * The one injection token of a service's logger (the pino `Logger` of `createLogger`), provided once per app by
 * `MessagingModule.forRoot({ logger })` and injected everywhere as `@Inject(LOGGER) logger: Logger`.
 */
export const LOGGER = Symbol('LOGGER');
