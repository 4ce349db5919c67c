import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate as a file (for NODE_EXTRA_CA_CERTS and WEBHOOK_TEST_CA_FILE). */
  certFile: string;
  remove(): void;
}

/**
 * A throw-away self-signed certificate for a local HTTPS receiver, made with the OpenSSL command line (Node
 * can verify X.509 but not issue it). It names `localhost`, 127.0.0.1 and the extra names given.
 */
export function selfSignedCertificate(names: string[] = []): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'sb-webhook-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  const altNames = ['DNS:localhost', 'IP:127.0.0.1', ...names.map((name) => `DNS:${name}`)].join(',');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '1',
        '-subj',
        '/CN=switchboard-test-receiver',
        '-addext',
        `subjectAltName=${altNames}`,
      ],
      { stdio: 'pipe' },
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `these tests need the openssl command line to make a test certificate: ${(error as Error).message}`,
    );
  }
  return {
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
