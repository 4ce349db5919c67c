import { randomUUID } from 'node:crypto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  AgentRpc,
  type AgentSettingsView,
  type AnswerCallCommand,
  type AnswerCallReply,
  type GetNumberAgentQuery,
  type UpdateNumberAgentCommand,
} from '@switchboard/contracts';
import { Caller, RpcPattern, requireAccount, type RpcContext } from '@switchboard/messaging';
import { AgentService } from './agent.service';

/** A number's agent, forwarded by the gateway: its settings, and the Twilio voice URL's question. */
@Controller()
export class AgentNatsController {
  constructor(private readonly agents: AgentService) {}

  @RpcPattern(AgentRpc.get)
  get(@Payload() request: GetNumberAgentQuery, @Caller() ctx: RpcContext): Promise<AgentSettingsView> {
    return this.agents.get(requireAccount(ctx), request.id);
  }

  @RpcPattern(AgentRpc.update)
  update(@Payload() request: UpdateNumberAgentCommand, @Caller() ctx: RpcContext): Promise<AgentSettingsView> {
    return this.agents.update(requireAccount(ctx), request, { correlationId: ctx.requestId ?? randomUUID() });
  }

  @RpcPattern(AgentRpc.answerCall)
  answerCall(@Payload() request: AnswerCallCommand): Promise<AnswerCallReply> {
    return this.agents.answerCall(request);
  }
}
