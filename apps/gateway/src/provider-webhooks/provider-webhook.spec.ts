import { ProviderWebhookRefused, refuseUnstorable } from './provider-webhook';

/** What `refuseUnstorable` throws for a payload, or undefined when it takes it. */
function refusal(body: string, payload: Record<string, unknown> = JSON.parse(body) as Record<string, unknown>) {
  try {
    refuseUnstorable('Stripe', Buffer.from(body), payload);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderWebhookRefused);
    return { code: (error as ProviderWebhookRefused).code, message: (error as Error).message };
  }
}

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('refuseUnstorable', () => {
  it('takes an ordinary event, and one nested exactly 32 levels', () => {
    expect(refusal('{"id":"evt_1","data":{"object":{"customer":"cus_1","lines":[{"a":[1,"x"]}]}}}')).toBeUndefined();
    expect(refusal(nested(32))).toBeUndefined();
  });

  it('refuses a payload nested 33 levels, or 3,000, with 400 invalid_request', () => {
    for (const levels of [33, 3000])
      expect(refusal(nested(levels))).toEqual({
        code: 'invalid_request',
        message: 'The Stripe event nests arrays or objects more than 32 levels deep.',
      });
    expect(refusal(`{"a":${'['.repeat(40)}${']'.repeat(40)}}`)?.code).toBe('invalid_request');
  });

  it('refuses a NUL anywhere: a raw byte, an escaped value, a field name', () => {
    expect(refusal('{"id":"evt_1"}\u0000', { id: 'evt_1' })?.message).toBe(
      'The Stripe event contains a NUL byte (0x00).',
    );
    expect(refusal('{"data":{"object":{"customer":"cus_\\u0000"}}}')?.message).toBe(
      "The Stripe event's field data.object.customer contains a NUL character (U+0000), which no field accepts.",
    );
    expect(refusal('{"data":{"x\\u0000":1}}')?.message).toBe(
      "The Stripe event's field data has a field name that contains a NUL character (U+0000), which no field accepts.",
    );
  });

  it('refuses an unpaired surrogate, which jsonb cannot hold either', () => {
    expect(refusal('{"id":"evt_\\ud800"}')?.message).toContain('field id contains an unpaired UTF-16 surrogate');
  });

  it('refuses a NUL in a decoded form value (Twilio), the raw body having none', () => {
    const body = 'CallSid=CA1&From=%2B1415%00555';
    expect(refusal(body, Object.fromEntries(new URLSearchParams(body)))?.message).toContain(
      'field From contains a NUL character',
    );
  });
});
