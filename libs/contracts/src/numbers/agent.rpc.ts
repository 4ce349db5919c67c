import { defineRpc } from '../messaging/rpc';
import {
  AnswerCallCommand,
  GetNumberAgentQuery,
  UpdateNumberAgentCommand,
  type AgentSettingsView,
  type AnswerCallReply,
} from './agent.dto';

/** A number's agent (docs/adr/0083-real-providers.md), answered by numbers-billing, which owns numbers. */
export const AgentRpc = {
  get: defineRpc<GetNumberAgentQuery, AgentSettingsView>('numbers.v1.agent.get', GetNumberAgentQuery),
  update: defineRpc<UpdateNumberAgentCommand, AgentSettingsView>('numbers.v1.agent.update', UpdateNumberAgentCommand),
  /** Internal: the gateway's Twilio voice URL asks where a ringing call goes. */
  answerCall: defineRpc<AnswerCallCommand, AnswerCallReply>('numbers.v1.agent.answer-call', AnswerCallCommand),
} as const;
