import {
  NumberAnalysisFieldsChangedEvent,
  ServiceError,
  analysisFieldsProblem,
  type AnalysisFieldBody,
  type AnalysisFieldDefinition,
} from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import { formatNumberId } from '../numbers/number-id';
import type { NumbersOutbox } from '../outbox/numbers-outbox';
import type { Tx } from '../prisma/numbers-billing-prisma';
import type { NumberAgentRecord } from './number-agents.repository';

/**
 * The analysis fields of a body that passed the field-by-field rules (the gateway's and this service's validation),
 * checked across the fields (names unique, `choices` with type enum only and there required, each once): 400
 * `invalid_request` naming the first problem. Checked before anything changes or is bought.
 */
export function acceptAnalysisFields(body: readonly AnalysisFieldBody[] | null | undefined): AnalysisFieldDefinition[] {
  const problem = analysisFieldsProblem(body ?? []);
  if (problem) throw new ServiceError('invalid_request', problem);
  return analysisFieldsFrom(body);
}

/**
 * The analysis fields to keep from a validated body (`PUT /v1/numbers/{id}/agent`, `agent` on NumberCreate): null or
 * left out is none; each field holds exactly its name, type and description, and `choices` only when it is an enum
 * (validation refuses them elsewhere; nothing else the body object carries is kept). The order is the one given.
 */
export function analysisFieldsFrom(body: readonly AnalysisFieldBody[] | null | undefined): AnalysisFieldDefinition[] {
  return (body ?? []).map((field) => definition(field));
}

/**
 * The fields kept in `number_agents.analysis_fields` (a JSON array, written by `analysisFieldsFrom`). A statement run
 * through Kysely may hand the column over as its JSON text rather than parsed: both are read.
 */
export function analysisFieldsOf(column: unknown): AnalysisFieldDefinition[] {
  const value: unknown = typeof column === 'string' ? JSON.parse(column) : column;
  if (!Array.isArray(value)) return [];
  return value.map((field) => definition(field as AnalysisFieldDefinition));
}

/**
 * `number.analysis_fields.changed` for the agent as it now is, into the outbox in the caller's transaction (the one
 * that wrote the settings): the version is the settings' own, so a consumer keeps the newest whatever the order.
 */
export async function publishAnalysisFields(
  outbox: NumbersOutbox,
  tx: Tx,
  agent: NumberAgentRecord,
  cause: EventCause,
): Promise<void> {
  await outbox.write(
    tx,
    NumberAnalysisFieldsChangedEvent,
    {
      number_id: formatNumberId(agent.number_id),
      account_id: agent.account_id,
      analysis_fields: analysisFieldsOf(agent.analysis_fields),
      version: agent.version,
      changed_at: agent.updated_at.toISOString(),
    },
    cause,
  );
}

function definition(field: AnalysisFieldDefinition): AnalysisFieldDefinition {
  return {
    name: field.name,
    type: field.type,
    description: field.description,
    ...(field.type === 'enum' ? { choices: [...(field.choices ?? [])] } : {}),
  };
}
