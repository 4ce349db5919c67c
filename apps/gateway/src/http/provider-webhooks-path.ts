/**
 * Where providers send their webhooks, outside `/v1` and outside API-key authentication (the signature is theirs).
 * The HTTP layer knows it because those requests keep their own content types (form-encoded Twilio callbacks).
 */
export const PROVIDER_WEBHOOKS_PATH = '/provider-webhooks';
