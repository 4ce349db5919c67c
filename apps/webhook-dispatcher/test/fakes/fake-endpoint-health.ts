import type { EndpointDisabledReason } from '@switchboard/contracts';
import type { EndpointHealthPort } from '../../src/endpoints/endpoint-health.port';

/** Endpoint health in memory: disabled numbers are set by the test; outcomes are kept. */
export class FakeEndpointHealth implements EndpointHealthPort {
  readonly disabled = new Set<string>();
  readonly outcomes: { numberId: string; succeeded: boolean; statusCode: number | null }[] = [];

  async isDisabled(numberId: string): Promise<boolean> {
    return this.disabled.has(numberId);
  }

  async record(input: {
    numberId: string;
    succeeded: boolean;
    statusCode: number | null;
  }): Promise<EndpointDisabledReason | undefined> {
    this.outcomes.push({ numberId: input.numberId, succeeded: input.succeeded, statusCode: input.statusCode });
    return undefined;
  }
}
