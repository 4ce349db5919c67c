import { randomUUID } from 'node:crypto';
import type { CallCompletedData, ProvisionNumberCommand } from '@switchboard/contracts';

/** A valid NumberCreate body: a San Francisco business line, no webhook. */
export function numberCreate(overrides: Partial<ProvisionNumberCommand> = {}): ProvisionNumberCommand {
  return { business_phone: '+14155550123', ...overrides };
}

/** A `call.completed` payload for a number of an account. */
export function callCompleted(
  overrides: Partial<CallCompletedData> & Pick<CallCompletedData, 'account_id' | 'number_id'>,
): CallCompletedData {
  return {
    call_sid: `CA${randomUUID().replace(/-/g, '')}`,
    phone_number: '+14155550100',
    caller: '+12125550142',
    direction: 'inbound',
    status: 'completed',
    outcome: 'order',
    duration_sec: 60,
    started_at: new Date().toISOString(),
    has_recording: false,
    has_transcript: false,
    ...overrides,
  };
}
