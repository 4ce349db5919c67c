import type { SimulateProviderCallBody } from '@switchboard/contracts';
import { newCallSid } from '../../src/telephony/call-sid';
import type { ProviderCallReport } from '../../src/telephony/provider-call-report';
import { aUsPhoneNumber } from './number-state.factory';

/** The operator's `POST /admin/provider/calls` body. */
export function aSimulatedCall(overrides: Partial<SimulateProviderCallBody> = {}): SimulateProviderCallBody {
  return {
    to: aUsPhoneNumber(),
    caller: aUsPhoneNumber(),
    duration_sec: 42,
    outcome: 'order_placed',
    transcript: [
      { role: 'agent', text: 'Thanks for calling Pizza Planet, how can I help?' },
      { role: 'caller', text: 'A large margherita for pick-up, please.' },
    ],
    recording: true,
    ...overrides,
  };
}

/** A report as a provider adapter hands it to CallReportsService.receive. */
export function aProviderCallReport(overrides: Partial<ProviderCallReport> = {}): ProviderCallReport {
  return {
    call_sid: newCallSid(),
    to: aUsPhoneNumber(),
    caller: aUsPhoneNumber(),
    direction: 'inbound',
    status: 'completed',
    outcome: 'order',
    duration_sec: 30,
    started_at: new Date(),
    transcript: [{ role: 'agent', text: 'Hello!' }],
    recording: null,
    ...overrides,
  };
}
