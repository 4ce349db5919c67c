import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SIGNATURE_HEADER, signedHeaders, signatureHeader, computeSignature, verify } from './signing';

const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

describe("the signing README's description of the signature header", () => {
  it('names the separator the header is written with during a rotation, and verify takes it', () => {
    const [, said] = /accepts a (\w+)-separated list of `v1=` signatures/.exec(readme) ?? [];
    const separator = { space: ' ', comma: ',' }[said];
    expect({ said, separator }).toEqual({ said, separator: expect.any(String) });

    const body = '{"type":"webhook.test"}';
    const header = signedHeaders(['whsec_new', 'whsec_old'], body, 1_700_000_000)[SIGNATURE_HEADER];
    const [fresh, old] = ['whsec_new', 'whsec_old'].map((secret) =>
      signatureHeader(computeSignature(secret, 1_700_000_000, body)),
    );
    expect(header).toBe([fresh, old].join(separator));
    const now = new Date(1_700_000_000 * 1000);
    const checked = verify({
      secret: 'whsec_old',
      rawBody: body,
      timestampHeader: '1700000000',
      signatureHeader: header,
      now,
    });
    expect(checked).toEqual({ valid: true, timestamp: 1_700_000_000 });
  });
});
