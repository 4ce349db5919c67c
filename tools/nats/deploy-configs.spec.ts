import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as messaging from '@switchboard/messaging';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper without types; this names them
const { deployNatsConfigs } = require('./deploy-configs.cjs') as {
  deployNatsConfigs(m: typeof messaging): { path: string; text: string }[];
};
const root = join(__dirname, '..', '..');

describe('the nats-server configurations in deploy/', () => {
  it.each(deployNatsConfigs(messaging).map((config) => [config.path, config.text]))(
    '%s is what the grants render (node tools/nats/deploy-configs.cjs rewrites it)',
    (path, text) => {
      expect(readFileSync(join(root, path), 'utf8')).toBe(text);
    },
  );

  it('reads every password from the environment and serves TLS in Kubernetes', () => {
    const [k8s, compose] = deployNatsConfigs(messaging).map((config) => config.text);
    for (const text of [k8s, compose]) {
      expect(text).toContain('password: $WEBHOOK_DISPATCHER_NATS_PASSWORD');
      expect(text).not.toMatch(/password: "/);
    }
    expect(k8s).toContain('tls: { cert_file: "/etc/nats/tls/tls.crt"');
  });
});
