// A throwaway certificate authority and a server certificate for 127.0.0.1 and localhost, made with the openssl
// command line (P-256 keys: what most modern receivers serve): the benchmarks' webhook receivers
// (tools/perf/bench/events.mjs) and the cluster run's gateways and receiver (tools/deploy/cluster/cluster.mjs).
// Clients trust the CA through Node's NODE_EXTRA_CA_CERTS, exactly as docs/webhooks.md tells an operator with a
// private CA to do.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function makeCertificates(dir, { name = 'Switchboard bench CA', days = 2 } = {}) {
  const file = (name) => join(dir, name);
  const openssl = (...args) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file('ca.key'));
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    file('ca.key'),
    '-sha256',
    '-days',
    String(days),
    '-subj',
    `/CN=${name}`,
    '-out',
    file('ca.pem'),
  );
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file('server.key'));
  openssl('req', '-new', '-key', file('server.key'), '-subj', '/CN=localhost', '-out', file('server.csr'));
  writeFileSync(
    file('server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    String(days),
    '-sha256',
    '-extfile',
    file('server.ext'),
    '-out',
    file('server.pem'),
  );
  return {
    caFile: file('ca.pem'),
    ca: readFileSync(file('ca.pem'), 'utf8'),
    keyFile: file('server.key'),
    certFile: file('server.pem'),
  };
}
