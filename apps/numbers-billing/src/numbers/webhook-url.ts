import { Inject, Injectable } from '@nestjs/common';
import { MAX_URL_LENGTH, ServiceError } from '@switchboard/contracts';
import { EgressRefusedError, checkWebhookUrl } from '@switchboard/egress';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from '../config/tokens';

/**
 * A webhook URL as it is stored: serialised by the WHATWG URL parser (the one `fetch`, the egress check and every
 * browser use), so the host that was checked is the host every later reader sees. `HTTPS://Example.COM:443/a/../b`
 * is stored as `https://example.com/b`; `https://0x7f.1/` as `https://127.0.0.1/` (and so refused).
 * Throws 400 `invalid_request` for what WHATWG cannot parse or does not make an https URL of.
 */
export function normalizeWebhookUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError('invalid_request', 'webhook_url must be an absolute https:// URL');
  }
  if (url.protocol !== 'https:')
    throw new ServiceError('invalid_request', 'webhook_url must be an absolute https:// URL');
  if (url.href.length > MAX_URL_LENGTH)
    throw new ServiceError(
      'invalid_request',
      `webhook_url must be at most ${MAX_URL_LENGTH} characters once normalised`,
    );
  return url.href;
}

/** The one rule for a webhook URL a number is given, at creation and on change (ADRs 0075 and 0057). */
@Injectable()
export class WebhookUrlPolicy {
  constructor(@Inject(NUMBERS_BILLING_CONFIG) private readonly config: NumbersBillingConfig) {}

  /**
   * The normalised URL, or 400 `invalid_request` naming `webhook_url` unless it is https and not private: a private
   * IP literal or a name resolving to a private address is refused; a name that does not resolve yet is accepted,
   * since every delivery checks again.
   */
  async accept(raw: string): Promise<string> {
    const url = normalizeWebhookUrl(raw);
    try {
      await checkWebhookUrl(url, this.config.egress);
    } catch (error) {
      if (error instanceof EgressRefusedError)
        throw new ServiceError('invalid_request', `webhook_url is not allowed: ${error.message}`);
      throw error;
    }
    return url;
  }
}
