import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, testNatsEnv, type TestDatabase } from '@switchboard/testing';
import { createGateway, type GatewayRuntime } from '../bootstrap';

jest.setTimeout(60_000);

function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

function httpsGet(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gateway HTTPS', () => {
  let db: TestDatabase;
  let dir: string;
  const baseEnv = () => ({
    ...process.env,
    ...testNatsEnv('gateway'),
    NATS_SUBJECT_PREFIX: `https${process.pid}`,
    GATEWAY_DATABASE_URL: db.url,
    ADMIN_TOKEN: 'a-long-enough-admin-token',
    // Required in production, which two of these runs are.
    CONSOLE_URL: 'https://switchboard.example.com/console/',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
  });

  beforeAll(async () => {
    db = await createTestDatabase('gateway');
    dir = mkdtempSync(join(tmpdir(), 'sb-https-'));
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('with TLS_CERT and TLS_KEY', () => {
    let gateway: GatewayRuntime;
    let ca: string;

    beforeAll(async () => {
      const files = selfSignedCertificate(dir);
      ca = readFileSync(files.cert, 'utf8');
      gateway = await createGateway({ ...baseEnv(), TLS_CERT: files.cert, TLS_KEY: files.key, NODE_ENV: 'production' });
      await gateway.listen({ port: 0, adminPort: 0 });
    });
    afterAll(() => gateway?.close());

    it('serves the public API over TLS', async () => {
      const url = (await gateway.publicApp.getUrl()).replace('[::1]', '127.0.0.1').replace('0.0.0.0', '127.0.0.1');
      expect(url.startsWith('https://')).toBe(true);
      const answer = await httpsGet(`${url}/v1/numbers`, ca);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body).error.code).toBe('unauthorized');
    });
  });

  describe('in production behind a proxy', () => {
    let gateway: GatewayRuntime;
    let url: string;

    beforeAll(async () => {
      gateway = await createGateway({ ...baseEnv(), NODE_ENV: 'production', TRUSTED_PROXIES: '127.0.0.1,::1' });
      ({ publicUrl: url } = await gateway.listen({ port: 0, adminPort: 0 }));
    });
    afterAll(() => gateway?.close());

    it('refuses a plain-HTTP request with 400 and the envelope', async () => {
      const answer = await fetch(`${url}/v1/numbers`);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: { code: 'invalid_request', message: 'Requests must use HTTPS.' } });
    });

    it('accepts a request the trusted proxy says came over HTTPS', async () => {
      const answer = await fetch(`${url}/v1/numbers`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(answer.status).toBe(401);
    });

    it('keeps /healthz reachable over plain HTTP for probes', async () => {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    });
  });
});
