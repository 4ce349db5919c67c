// The nats-server configurations in deploy/, rendered from the one definition of the services' grants
// (libs/messaging/src/bus-permissions.ts, docs/adr/0133-messaging.md). Passwords are not in them: nats-server
// reads each service's from an environment variable (`$GATEWAY_NATS_PASSWORD`...) fed from a Secret or .env.
//   node tools/nats/deploy-configs.cjs          rewrite them after a change to the grants
// tools/nats/deploy-configs.spec.ts fails while a committed file differs from what this renders.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const HEADER =
  'Rendered by tools/nats/deploy-configs.cjs from libs/messaging/src/bus-permissions.ts: edit those, not this.';

/** `GATEWAY_NATS_PASSWORD`, `NUMBERS_BILLING_NATS_PASSWORD`, ...: the variable holding a service's password. */
function passwordVariable(service) {
  return `${service.toUpperCase().replace(/-/g, '_')}_NATS_PASSWORD`;
}

/** `messaging` is the @switchboard/messaging module; returns each file's path (from the repository root) and text. */
function deployNatsConfigs(messaging, prefix = 'sb') {
  const users = messaging.serviceUsers(prefix, (service) => ({ env: passwordVariable(service) }));
  return [
    {
      // Kubernetes: for the NATS you run (e.g. the NATS Helm chart), TLS from the Secret nats-server-tls.
      path: 'deploy/nats/nats-server.conf',
      text: messaging.natsServerConfig({
        header: `${HEADER}\nKubernetes: TLS from the Secret nats-server-tls mounted at /etc/nats/tls; passwords from the Secret nats-users.`,
        listen: '0.0.0.0:4222',
        storeDir: '/data',
        monitorPort: 8222,
        tls: { certFile: '/etc/nats/tls/tls.crt', keyFile: '/etc/nats/tls/tls.key' },
        users,
      }),
    },
    {
      // Compose: one Docker network on one host, ports bound to 127.0.0.1; passwords from .env (make-env.mjs).
      path: 'deploy/compose/nats-server.conf',
      text: messaging.natsServerConfig({
        header: `${HEADER}\nCompose: passwords from .env (deploy/compose/make-env.mjs); no TLS inside the host's Docker network.`,
        listen: '0.0.0.0:4222',
        storeDir: '/data',
        users,
      }),
    },
  ];
}

module.exports = { deployNatsConfigs, passwordVariable };

if (require.main === module) {
  require(join(root, 'libs', 'testing', 'src', 'ts-register.cjs'));
  for (const { path, text } of deployNatsConfigs(require('@switchboard/messaging'))) {
    writeFileSync(join(root, path), text);
    console.log(`wrote ${path}`);
  }
}
