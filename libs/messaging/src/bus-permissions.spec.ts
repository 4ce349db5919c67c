import { BUS_GRANTS, busPermissions, natsServerConfig, serviceUsers } from './bus-permissions';

describe('bus permissions', () => {
  it("lets the gateway request the services' public subjects but not the webhook target, and serve nothing", () => {
    const gateway = busPermissions('gateway', 'sb');
    expect(gateway.publish.allow).toEqual(expect.arrayContaining(['sb.numbers.v1.>', 'sb.health.v1.lostfound']));
    expect(gateway.publish.deny).toEqual(['sb.numbers.v2.webhook-target.get', 'sb.calls.v2.lost-item-report.get']);
    // Its replies, and the dispatcher's copies of signed deliveries for `webhook/listen` streams (ADR 0128).
    expect(gateway.subscribe.allow).toEqual(['_INBOX.gateway.>', 'sb.webhook-copies.v1.>']);
    expect(gateway.publish.allow.filter((subject) => subject.includes('webhook-copies'))).toEqual([]);
    expect(gateway.allow_responses).toBeUndefined();
    // It publishes provider webhooks only (ADR 0083); on JetStream it reads the WEBHOOKS stream through its one
    // durable only (ADR 0075).
    expect(gateway.publish.allow.filter((subject) => subject.includes('.events.'))).toEqual([
      'sb.events.v1.provider.>',
    ]);
    expect(
      gateway.publish.allow.filter(
        (subject) => subject.startsWith('$JS.') && !subject.startsWith('$JS.API.STREAM.') && subject !== '$JS.API.INFO',
      ),
    ).toEqual(expect.arrayContaining(['$JS.API.CONSUMER.MSG.NEXT.SB_WEBHOOKS.gateway-endpoint-alerts']));
    expect(
      gateway.publish.allow.filter(
        (subject) => subject.startsWith('$JS.') && !subject.includes('SB_WEBHOOKS') && !subject.includes('SB_PROVIDER'),
      ),
    ).toEqual(['$JS.API.INFO']);
    expect(gateway.publish.allow.filter((subject) => subject.includes('SB_PROVIDER'))).toEqual([
      '$JS.API.STREAM.INFO.SB_PROVIDER',
      '$JS.API.STREAM.CREATE.SB_PROVIDER',
    ]);
  });

  it('names each stream and durable a service touches, for the deployment prefix', () => {
    const dispatcher = busPermissions('webhook-dispatcher', 'sb');
    expect(dispatcher.publish.allow).toEqual(
      expect.arrayContaining([
        'sb.numbers.v2.webhook-target.get',
        '$JS.API.STREAM.INFO.SB_CALLS',
        '$JS.API.CONSUMER.MSG.NEXT.SB_CALLS.webhook-dispatcher',
        '$JS.ACK.SB_CALLS.webhook-dispatcher.>',
      ]),
    );
    // It publishes its own events only (webhook.endpoint_disabled, ADR 0075), never another service's.
    expect(dispatcher.publish.allow.filter((subject) => subject.startsWith('sb.events.'))).toEqual([
      'sb.events.v1.webhook.>',
    ]);
    expect(dispatcher.publish.allow).toEqual(
      expect.arrayContaining([
        '$JS.API.CONSUMER.MSG.NEXT.SB_NUMBERS.webhook-dispatcher-number-updated',
        '$JS.API.STREAM.CREATE.SB_WEBHOOKS',
      ]),
    );
    expect(dispatcher.subscribe.allow).toEqual([
      '_INBOX.webhook-dispatcher.>',
      'sb.webhooks.v1.>',
      'sb.health.v1.webhook-dispatcher',
      // Heard on plain subscriptions by every replica (ADR 0101); no one else may subscribe to events.
      'sb.events.v1.number.updated',
      'sb.events.v1.number.released',
    ]);
    // It publishes copies of its signed deliveries for listeners (ADR 0128) on plain NATS; only the gateway reads them.
    expect(dispatcher.publish.allow.filter((subject) => subject.includes('webhook-copies'))).toEqual([
      'sb.webhook-copies.v1.>',
    ]);
    for (const service of ['numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'] as const)
      expect(busPermissions(service, 'sb').subscribe.allow.filter((s) => s.includes('webhook-copies'))).toEqual([]);
    for (const service of ['gateway', 'numbers-billing', 'calls-media', 'lostfound'] as const)
      expect(busPermissions(service, 'sb').subscribe.allow.filter((s) => s.startsWith('sb.events.'))).toEqual([]);
    expect(busPermissions('calls-media', 'sb').publish.allow).toContain('sb.events.v1.call.>');
    expect(busPermissions('calls-media', '*').publish.allow).toContain('$JS.API.STREAM.CREATE.*');
  });

  it('writes a server configuration with a user per service and no anonymous access', () => {
    const users = serviceUsers('sb', (service) => ({
      env: `${service.toUpperCase().replace(/-/g, '_')}_NATS_PASSWORD`,
    }));
    const text = natsServerConfig({
      listen: '0.0.0.0:4222',
      storeDir: '/data',
      users,
      tls: { certFile: '/tls/tls.crt', keyFile: '/tls/tls.key' },
    });
    expect(users.map((user) => user.user)).toEqual(Object.keys(BUS_GRANTS));
    expect(text).toContain('{ user: "gateway", password: $GATEWAY_NATS_PASSWORD, permissions: {');
    expect(text).toContain('tls: { cert_file: "/tls/tls.crt", key_file: "/tls/tls.key" }');
    expect(text).not.toMatch(/no_auth_user|allow_anonymous/);
  });
});
