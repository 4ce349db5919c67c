import type { LiveCallEvent } from '@switchboard/contracts';

/**
 * Where a recorded call's `ended` live event goes once committed (live-calls' `LiveCallEventsPublisher`, bound by the
 * module): live-calls uses call-reports to close calls, so call-reports declares what it needs here rather than
 * importing live-calls back.
 */
export interface LiveEventsOutlet {
  publish(events: readonly LiveCallEvent[]): void;
}

export const LIVE_EVENTS_OUTLET = Symbol('LIVE_EVENTS_OUTLET');
