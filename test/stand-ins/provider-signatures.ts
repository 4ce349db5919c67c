import { createHmac } from 'node:crypto';

/**
 * The providers' webhook signatures, written from their public references (not with their SDKs, so a test of our
 * SDK-based verifiers checks them against the documented scheme). Stand-ins and tests sign with these.
 */

/** Stripe: `Stripe-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export function stripeSignature(body: string, secret: string, at: Date = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/**
 * Twilio: `X-Twilio-Signature: base64(HMAC-SHA1(auth token, <full URL> + every POST parameter's name and value,
 * sorted by name))`.
 */
export function twilioSignature(url: string, params: Record<string, string>, authToken: string): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, name) => text + name + params[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Retell: `x-retell-signature: v=<unix ms>,d=<hex HMAC-SHA256(API key, "<raw body><ms>")>`. */
export function retellSignature(body: string, apiKey: string, at: Date = new Date()): string {
  const ms = at.getTime();
  return `v=${ms},d=${createHmac('sha256', apiKey).update(`${body}${ms}`).digest('hex')}`;
}
