import { Inject, Injectable } from '@nestjs/common';
import { AgentRpc, type AnswerCallReply } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../config/tokens';
import { ProviderWebhookIntake } from './provider-webhook-intake';
import { ProviderWebhookRefused, type ProviderWebhookRequest } from './provider-webhook';
import type { TwilioWebhookVerifier } from './twilio.verifier';

type VoiceResponseClass = typeof import('twilio/lib/twiml/VoiceResponse');

/**
 * Twilio's voice URL (docs/adr/0083): a call is ringing one of our numbers and Twilio waits for TwiML. After the
 * signature holds, numbers-billing says where the call goes (the agent's SIP address for this call) and the answer
 * is `<Dial record><Sip>` (recorded, the recording announced to our recording callback); a number without an agent, or a failure on our side, is `<Reject reason="busy">`: Twilio
 * answers every non-TwiML reply with its own error message, and a busy tone is what a caller understands. Not an
 * event: nothing is recorded (the call's report comes later, from the agent platform).
 */
@Injectable()
export class TwilioVoiceAnswerer {
  private voiceResponse: Promise<VoiceResponseClass> | undefined;

  constructor(
    private readonly intake: ProviderWebhookIntake,
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The TwiML to answer with; throws `ProviderWebhookRefused` when the request is not Twilio's. */
  async answer(request: ProviderWebhookRequest, cause: { requestId: string }): Promise<string> {
    const verifier = this.intake.verifierOf('twilio') as TwilioWebhookVerifier;
    const params = await verifier.verifiedParams(request);
    const callSid = params.CallSid ?? '';
    if (!/^CA[0-9a-f]{32}$/.test(callSid) || !params.To)
      throw new ProviderWebhookRefused('invalid_request', 'The voice request has no usable CallSid or To.');
    let reply: AnswerCallReply;
    try {
      reply = await this.rpc.request(
        AgentRpc.answerCall,
        { call_sid: callSid, from: params.From ?? '', to: params.To },
        { requestId: cause.requestId },
      );
    } catch (error) {
      this.logger.error({ err: error, call_sid: callSid }, 'voice URL: no answer from numbers-billing; call refused');
      reply = { action: 'reject', reason: 'numbers-billing did not answer' };
    }
    const VoiceResponse = await (this.voiceResponse ??= import('twilio/lib/twiml/VoiceResponse.js').then(
      (module) => module.default ?? module,
    ));
    const twiml = new VoiceResponse();
    if (reply.action === 'sip' && reply.sip_uri)
      // Twilio records both sides from the answer and tells our recording callback when the MP3 is ready (ADR 0083).
      twiml
        .dial({
          record: 'record-from-answer-dual',
          recordingStatusCallback: `${this.config.providerWebhooks.publicBaseUrl}/provider-webhooks/twilio/recording`,
          recordingStatusCallbackMethod: 'POST',
        })
        .sip(reply.sip_uri);
    else twiml.reject({ reason: 'busy' });
    return twiml.toString();
  }
}
