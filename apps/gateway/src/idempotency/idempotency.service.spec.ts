import { canonicalJson, requestHash } from './idempotency.service';

describe('the request fingerprint of an Idempotency-Key', () => {
  it('does not depend on the order of keys in the body', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(requestHash({ method: 'POST', path: '/v1/numbers', body: { a: 1, b: 2 } })).toBe(
      requestHash({ method: 'POST', path: '/v1/numbers', body: { b: 2, a: 1 } }),
    );
  });

  it('ignores absent fields but not null ones', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(canonicalJson({ a: 1, b: null })).toBe('{"a":1,"b":null}');
  });

  it('differs with the body, the method or the path', () => {
    const base = { method: 'POST', path: '/v1/numbers', body: { business_phone: '+14155550123' } };
    const hash = requestHash(base);
    expect(requestHash({ ...base, body: { business_phone: '+14155550124' } })).not.toBe(hash);
    expect(requestHash({ ...base, method: 'PUT' })).not.toBe(hash);
    expect(requestHash({ ...base, path: '/v1/calls' })).not.toBe(hash);
  });
});
