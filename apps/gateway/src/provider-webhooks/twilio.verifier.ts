import {
  ProviderWebhookRefused,
  mediaType,
  singleHeader,
  type ProviderWebhookRequest,
  type ProviderWebhookVerifier,
  type VerifiedProviderEvent,
} from './provider-webhook';

/** Twilio's callbacks we take in, by the last segment of their URL (set on each number we buy). */
export const TWILIO_CALLBACKS = {
  /** The voice URL: answered at once with TwiML (twilio-voice.ts), not recorded as an event. */
  voice: 'voice',
  /** `StatusCallback`: a call's progress; one event per call and status. */
  status: 'call.status',
  /** `RecordingStatusCallback`: a recording is ready to fetch; one event per recording. */
  recording: 'recording.status',
} as const;
export type TwilioCallback = keyof typeof TWILIO_CALLBACKS;

/** What a callback whose signature does not hold, or that is not our account's, is told. */
const BAD_SIGNATURE = 'The Twilio signature does not verify.';

type ValidateRequest = (authToken: string, signature: string, url: string, params: Record<string, string>) => boolean;

/**
 * Twilio's `X-Twilio-Signature`: base64 HMAC-SHA1, keyed with the account's auth token, of the full URL Twilio
 * called followed by every POST parameter's name and value sorted by name. Twilio signs the URL it was given, so the
 * URL is rebuilt from `PUBLIC_BASE_URL` (what we set on the number), not from the Host header a proxy may change.
 * The check is the SDK's `validateRequest` (only its webhooks module is loaded, at the first Twilio callback), then the
 * callback's `AccountSid` must be ours (`TWILIO_ACCOUNT_SID`). Twilio's signature has no timestamp: a replayed
 * callback is refused by its event id (`provider_events`).
 */
export class TwilioWebhookVerifier implements ProviderWebhookVerifier {
  readonly provider = 'twilio' as const;
  private validate: Promise<ValidateRequest> | undefined;

  constructor(
    private readonly authToken: string,
    /** `TWILIO_ACCOUNT_SID`: the one account whose callbacks are ours. */
    private readonly accountSid: string,
    /** `PUBLIC_BASE_URL` without its trailing slash. */
    private readonly publicBaseUrl: string,
  ) {}

  /** Verifies the signature and answers the form parameters (for the voice URL, which is not an event). */
  async verifiedParams(request: ProviderWebhookRequest): Promise<Record<string, string>> {
    if (!(request.callback in TWILIO_CALLBACKS))
      throw new ProviderWebhookRefused('not_found', `Twilio has no callback "${request.callback}" here.`);
    if (mediaType(request.headers) !== 'application/x-www-form-urlencoded')
      throw new ProviderWebhookRefused('unsupported_media_type', 'Twilio callbacks are form-encoded.');
    const signature = singleHeader(request.headers, 'x-twilio-signature');
    if (!signature) throw new ProviderWebhookRefused('unauthorized', 'The X-Twilio-Signature header is missing.');
    // The signed parameters are the form's: read as pairs (the last of a repeated name, as Twilio's own validator).
    const params = Object.fromEntries(new URLSearchParams(request.body.toString('utf8')));
    const validate = await (this.validate ??= loadValidateRequest());
    if (!validate(this.authToken, signature, `${this.publicBaseUrl}${request.url}`, params))
      throw new ProviderWebhookRefused('unauthorized', BAD_SIGNATURE);
    // Every callback names the account it is about (`AccountSid`). Signed with our token but naming another account
    // (a subaccount sharing the token, a callback replayed from elsewhere), it is not ours: refused exactly as a bad
    // signature is, so the sender learns nothing more; the log says which account it named.
    if (params.AccountSid !== this.accountSid)
      throw new ProviderWebhookRefused(
        'unauthorized',
        BAD_SIGNATURE,
        `the callback names account ${JSON.stringify((params.AccountSid ?? '').slice(0, 40))}, not ours`,
      );
    return params;
  }

  async verify(request: ProviderWebhookRequest): Promise<VerifiedProviderEvent> {
    const params = await this.verifiedParams(request);
    const callback = request.callback as TwilioCallback;
    if (callback === 'voice')
      throw new ProviderWebhookRefused(
        'invalid_request',
        'The voice URL is answered with TwiML, not taken as an event.',
      );
    const kind = TWILIO_CALLBACKS[callback];
    const eventId =
      callback === 'recording'
        ? twilioSid(params, 'RecordingSid', 'RE')
        : `${twilioSid(params, 'CallSid', 'CA')}:${twilioWord(params, 'CallStatus')}`;
    return { eventId, kind, payload: params };
  }
}

function twilioSid(params: Record<string, string>, name: string, prefix: string): string {
  const value = params[name];
  if (!value || !new RegExp(`^${prefix}[0-9a-f]{32}$`).test(value))
    throw new ProviderWebhookRefused('invalid_request', `The Twilio callback has no usable ${name}.`);
  return value;
}

function twilioWord(params: Record<string, string>, name: string): string {
  const value = params[name];
  if (!value || !/^[a-z-]{1,40}$/.test(value))
    throw new ProviderWebhookRefused('invalid_request', `The Twilio callback has no usable ${name}.`);
  return value;
}

async function loadValidateRequest(): Promise<ValidateRequest> {
  const webhooks = await import('twilio/lib/webhooks/webhooks.js');
  return webhooks.validateRequest as ValidateRequest;
}
