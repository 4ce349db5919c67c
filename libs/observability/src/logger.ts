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
  // The console's secrets (docs/adr/0066): session cookies, CSRF and invite tokens, invite links.
  'cookie',
  '*.cookie',
  'headers.cookie',
  'req.headers.cookie',
  '*.set-cookie',
  'headers["set-cookie"]',
  'token',
  '*.token',
  'csrf_token',
  '*.csrf_token',
  'headers["x-csrf-token"]',
  '*.headers["x-csrf-token"]',
  'invite_url',
  '*.invite_url',
  'claimant_phone',
  '*.claimant_phone',
  'proof_note',
  '*.proof_note',
];

/** `destination`: where the lines go (standard output by default; a test's own stream to read them). */
export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? defaultLevel(),
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
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
  };
  return destination ? pino(options, destination) : pino(options);
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
