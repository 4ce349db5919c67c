import type { EndpointDisabledReason } from '@switchboard/contracts';
import type { CountedAttempt, EndpointHealthPort, EndpointHealthRow } from '../../src/endpoints/endpoint-health.port';

/** Endpoint health in memory: the outcomes judged are kept (the count itself is the store's). */
export class FakeEndpointHealth implements EndpointHealthPort {
  readonly outcomes: { numberId: string; succeeded: boolean; statusCode: number | null; failures: number }[] = [];

  async judge(attempt: CountedAttempt, after: EndpointHealthRow): Promise<EndpointDisabledReason | undefined> {
    this.outcomes.push({
      numberId: attempt.numberId,
      succeeded: attempt.succeeded,
      statusCode: attempt.statusCode,
      failures: after.consecutive_failures,
    });
    return undefined;
  }
}
