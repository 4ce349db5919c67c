import {
  ProviderWebhookRefused,
  parseJsonObject,
  requiredString,
  singleHeader,
  type ProviderWebhookRequest,
  type ProviderWebhookVerifier,
  type VerifiedProviderEvent,
} from './provider-webhook';

type Verify = (body: string, apiKey: string, signature: string) => Promise<boolean>;

/**
 * Retell's `x-retell-signature` (`v=<unix ms>,d=<hex HMAC-SHA256 of "<raw body><ms>">`, keyed with the API key),
 * checked by the SDK's `verify`, which also refuses a timestamp more than five minutes away. Only the SDK's
 * webhook module is loaded, at the first Retell webhook.
 */
export class RetellWebhookVerifier implements ProviderWebhookVerifier {
  readonly provider = 'retell' as const;
  private check: Promise<Verify> | undefined;

  constructor(private readonly apiKey: string) {}

  async verify(request: ProviderWebhookRequest): Promise<VerifiedProviderEvent> {
    if (request.callback !== '')
      throw new ProviderWebhookRefused('not_found', 'Retell events are received at /provider-webhooks/retell.');
    const signature = singleHeader(request.headers, 'x-retell-signature');
    if (!signature) throw new ProviderWebhookRefused('unauthorized', 'The x-retell-signature header is missing.');
    const verify = await (this.check ??= loadVerify());
    if (!(await verify(request.body.toString('utf8'), this.apiKey, signature)))
      throw new ProviderWebhookRefused(
        'unauthorized',
        'The Retell signature does not verify (or is older than 5 minutes).',
      );
    const payload = parseJsonObject(request.body, 'Retell');
    const kind = requiredString(payload, 'event', 'Retell');
    if (payload.call === null || typeof payload.call !== 'object' || Array.isArray(payload.call))
      throw new ProviderWebhookRefused('invalid_request', 'The Retell event has no "call".');
    const call = payload.call as Record<string, unknown>;
    return { eventId: retellEventId(requiredString(call, 'call_id', 'Retell'), kind, call), kind, payload };
  }
}

/**
 * The once-only key of a Retell event: `<call_id>:<event>`, one fact per call and event, except `transcript_updated`,
 * which Retell sends again each time the transcript grows: `<call_id>:transcript_updated:<n>`, n the transcript's
 * utterances so far (`call.transcript_object`; 0 without one), so each update is taken in and a resent one is not.
 */
function retellEventId(callId: string, kind: string, call: Record<string, unknown>): string {
  if (kind !== 'transcript_updated') return `${callId}:${kind}`;
  const transcript = call.transcript_object;
  return `${callId}:${kind}:${Array.isArray(transcript) ? transcript.length : 0}`;
}

async function loadVerify(): Promise<Verify> {
  const auth = await import('retell-sdk/lib/webhook_auth');
  return auth.verify;
}
