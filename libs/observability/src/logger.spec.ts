import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACTED_PATHS } from './logger';

function capture(): { logger: pino.Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream);
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
  };
}

describe('logs never carry secrets', () => {
  it('redact keys, webhook secrets, authorization headers and claimant contact details', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        key: 'sk_live_abc',
        number: { webhook_secret: 'whsec' },
        req: { headers: { authorization: 'Bearer sk_live_abc' } },
        claim: { claimant_phone: '+14155550123', proof_note: 'receipt' },
      },
      'x',
    );
    const text = JSON.stringify(lines());
    for (const secret of ['sk_live_abc', 'whsec', '+14155550123', 'receipt']) expect(text).not.toContain(secret);
    expect(lines()[0].key).toBe('[redacted]');
  });

  it("redact the console's cookies, CSRF and invite tokens, invite links and passwords", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        req: { headers: { cookie: 'sb_session=cookie-secret', 'x-csrf-token': 'csrf-secret' } },
        headers: { 'set-cookie': 'sb_session=set-secret', 'x-csrf-token': 'csrf-secret-2' },
        body: { token: 'invite-secret', password: 'pw-secret', csrf_token: 'csrf-secret-3' },
        invite: { invite_url: 'http://127.0.0.1:3000/console/accept-invite#token=url-secret' },
      },
      'x',
    );
    const text = JSON.stringify(lines());
    for (const secret of ['cookie-secret', 'set-secret', 'csrf-secret', 'invite-secret', 'pw-secret', 'url-secret'])
      expect(text).not.toContain(secret);
  });
});
