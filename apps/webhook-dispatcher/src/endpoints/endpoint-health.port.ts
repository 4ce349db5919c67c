import type { EndpointDisabledReason } from '@switchboard/contracts';

/** What the delivery use case asks of endpoint health (EndpointHealth in the app, a fake in unit tests). */
export interface EndpointHealthPort {
  /** True while the number's endpoint is disabled: its events wait (`paused`). */
  isDisabled(numberId: string): Promise<boolean>;
  /** Records one counted attempt; the reason when it disabled the endpoint. */
  record(input: {
    numberId: string;
    accountId: string;
    succeeded: boolean;
    statusCode: number | null;
    at: Date;
  }): Promise<EndpointDisabledReason | undefined>;
}

export const ENDPOINT_HEALTH = Symbol('ENDPOINT_HEALTH');
