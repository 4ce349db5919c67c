import { ServiceError } from '@switchboard/contracts';
import { normalizeWebhookUrl } from './webhook-url';

describe('normalizeWebhookUrl', () => {
  it.each([
    ['HTTPS://Example.COM:443/a/../hooks', 'https://example.com/hooks'],
    ['https://example.com', 'https://example.com/'],
    ['https://93.184.215.14:8443/./x/', 'https://93.184.215.14:8443/x/'],
    ['https://0x7f.1/', 'https://127.0.0.1/'],
    ['https://ÉXAMPLE.com/ü?q=a b#f', 'https://xn--xample-9ua.com/%C3%BC?q=a%20b#f'],
  ])('stores %s as the WHATWG parser serialises it: %s', (raw, normalised) => {
    expect(normalizeWebhookUrl(raw)).toBe(normalised);
  });

  it('keeps a URL that is already normalised as it is', () => {
    expect(normalizeWebhookUrl('https://hooks.example.com/switchboard?key=1')).toBe(
      'https://hooks.example.com/switchboard?key=1',
    );
  });

  it.each([
    ['not a url'],
    ['http://example.com/'],
    ['https://exa mple.com/'],
    [`https://example.com/${'a'.repeat(2040)}`],
  ])('refuses %s with invalid_request naming webhook_url', (raw) => {
    let error: unknown;
    try {
      normalizeWebhookUrl(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('invalid_request');
    expect((error as ServiceError).message).toContain('webhook_url');
  });
});
