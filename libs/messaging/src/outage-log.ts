import type { Logger } from '@switchboard/observability';

/** A failure of the same thing this long after the previous one starts a new incident (and is logged again). */
export const OUTAGE_QUIET_MS = 60_000;

interface Incident {
  since: number;
  last: number;
  failures: number;
}

/**
 * Logs an outage (the database, the message bus, a service) once per incident rather than once per request: the
 * first failure is logged as a warning with its reason and no stack trace, later ones are only counted, and the
 * recovery is logged with how long it lasted and how many requests failed. An incident ends at `recovered()`, or
 * after `OUTAGE_QUIET_MS` without a failure when nothing reports the recovery.
 */
export class OutageLog {
  private readonly incidents = new Map<string, Incident>();

  constructor(
    private readonly logger: Logger,
    private readonly quietMs = OUTAGE_QUIET_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one failure of `what` (e.g. "database"); logs it when it starts an incident. */
  failed(what: string, error: unknown, fields: Record<string, unknown> = {}): void {
    const now = this.now();
    const incident = this.incidents.get(what);
    if (incident && now - incident.last < this.quietMs) {
      incident.failures += 1;
      incident.last = now;
      return;
    }
    this.incidents.set(what, { since: now, last: now, failures: 1 });
    this.logger.warn(
      { ...fields, outage: what, reason: reasonOf(error) },
      `${what} unavailable: answering 503 until it recovers (logged once per incident)`,
    );
  }

  /** `what` worked again: ends its incident, if one is open, with one line. */
  recovered(what: string): void {
    const incident = this.incidents.get(what);
    if (!incident) return;
    this.incidents.delete(what);
    this.logger.info(
      { outage: what, failures: incident.failures, duration_ms: this.now() - incident.since },
      `${what} available again`,
    );
  }

  isOpen(what: string): boolean {
    return this.incidents.has(what);
  }
}

/** One line: the last line of the error's message (Prisma puts the reason there) and its code, never its stack. */
function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const lastLine =
      error.message
        .trim()
        .split('\n')
        .filter((line) => line.trim())
        .pop() ?? error.name;
    return typeof code === 'string' && !lastLine.includes(code) ? `${lastLine.trim()} (${code})` : lastLine.trim();
  }
  return String(error);
}
