import { EMPTY_PAYLOAD_SHA256, signSigV4, uriEncode } from './sigv4';

describe('signSigV4', () => {
  // AWS's published example "GET Object" (Signature Version 4, single-chunk payload).
  const credentials = {
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  };

  it('matches the signature AWS documents for a ranged GET of an object', () => {
    const headers = signSigV4(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { Range: 'bytes=0-9' },
        payloadHash: EMPTY_PAYLOAD_SHA256,
      },
      credentials,
      { region: 'us-east-1', service: 's3', now: new Date('2013-05-24T00:00:00Z') },
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
    expect(headers['x-amz-content-sha256']).toBe(EMPTY_PAYLOAD_SHA256);
  });

  it('signs the port of a non-default endpoint as part of the host', () => {
    const sign = (url: string) =>
      signSigV4({ method: 'GET', url: new URL(url), headers: {}, payloadHash: EMPTY_PAYLOAD_SHA256 }, credentials, {
        region: 'us-east-1',
        service: 's3',
        now: new Date('2013-05-24T00:00:00Z'),
      }).authorization;
    expect(sign('http://127.0.0.1:9000/bucket/key')).not.toBe(sign('http://127.0.0.1:9001/bucket/key'));
  });
});

describe('uriEncode', () => {
  it('keeps unreserved characters and encodes everything else as upper-case UTF-8 escapes', () => {
    expect(uriEncode('a-Z_0.~ /é', false)).toBe('a-Z_0.~%20%2F%C3%A9');
    expect(uriEncode('dir/file name', true)).toBe('dir/file%20name');
  });
});
