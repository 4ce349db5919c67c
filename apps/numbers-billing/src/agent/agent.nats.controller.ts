import { Injectable } from '@nestjs/common';
import {
  AgentRpc,
  type AgentSettingsView,
  type AnswerCallCommand,
  type AnswerCallReply,
  type GetNumberAgentQuery,
  type UpdateNumberAgentCommand,
} from '@switchboard/contracts';
import { RpcHandler, requireAccount, type RpcContext } from '@switchboard/messaging';
import { AgentService } from './agent.service';

/** A number's agent, forwarded by the gateway: its settings, and the Twilio voice URL's question. */
@Injectable()
export class AgentNatsController {
  constructor(private readonly agents: AgentService) {}

  @RpcHandler(AgentRpc.get)
  get(request: GetNumberAgentQuery, ctx: RpcContext): Promise<AgentSettingsView> {
    return this.agents.get(requireAccount(ctx), request.id);
  }

  @RpcHandler(AgentRpc.update)
  update(request: UpdateNumberAgentCommand, ctx: RpcContext): Promise<AgentSettingsView> {
    return this.agents.update(requireAccount(ctx), request);
  }

  @RpcHandler(AgentRpc.answerCall)
  answerCall(request: AnswerCallCommand): Promise<AnswerCallReply> {
    return this.agents.answerCall(request);
  }
}
