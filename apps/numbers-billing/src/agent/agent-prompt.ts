import { DEFAULT_AGENT_GREETING } from '@switchboard/contracts';
import type { AgentDefinition } from './agent-runtime.port';

/** What the agent says first when the number has no greeting of its own (the console shows the same text). */
export const DEFAULT_GREETING = DEFAULT_AGENT_GREETING;

/** How the agent behaves when the number has no instructions of its own. */
export const DEFAULT_INSTRUCTIONS =
  'Answer politely and briefly for the business. Help the caller with what they need; if you cannot, take their name, ' +
  'number and message.';

/**
 * The agent's prompt: the number's instructions (or the default), then the rules every Switchboard agent keeps
 * whatever the instructions say: transfer to the business on request, and how to end a call.
 */
export function agentPrompt(definition: AgentDefinition): string {
  return [
    definition.instructions?.trim() || DEFAULT_INSTRUCTIONS,
    '',
    `You answer calls to ${definition.phoneNumber} for the business. When the caller asks for a person, or for ` +
      'something you cannot do, transfer the call with the transfer tool. When the caller is done, say goodbye and ' +
      'end the call with the end-call tool.',
  ].join('\n');
}

export function agentGreeting(definition: AgentDefinition): string {
  return definition.greeting?.trim() || DEFAULT_GREETING;
}
