import type { ServiceName } from '@switchboard/contracts';
import { BUS_GRANTS, busPermissions, natsServerConfig, serviceUsers } from './bus-permissions';

describe('bus permissions', () => {
  it("lets the gateway request the services' public subjects but not the webhook target, and serve nothing", () => {
    const gateway = busPermissions('gateway', 'sb');
    expect(gateway.publish.allow).toEqual(expect.arrayContaining(['sb.numbers.v1.>', 'sb.health.v1.lostfound']));
    expect(gateway.publish.deny).toEqual(['sb.numbers.v2.webhook-target.get', 'sb.calls.v2.lost-item-report.get']);
    // Its replies, the dispatcher's copies of signed deliveries for `webhook/listen` streams, and what ends those
    // streams on every replica: a revoked key (which it announces itself) and a released number (ADR 0128).
    expect(gateway.subscribe.allow).toEqual([
      '_INBOX.gateway.>',
      'sb.events.v1.number.released',
      'sb.webhook-copies.v1.>',
      'sb.api-key-revocations.v1',
      // The live events of the accounts whose calls it streams (docs/live-calls.md).
      'sb.calls-live.v1.>',
    ]);
    expect(gateway.publish.allow.filter((subject) => subject.includes('webhook-copies'))).toEqual([]);
    expect(gateway.publish.allow.filter((subject) => subject.includes('calls-live'))).toEqual([]);
    expect(gateway.publish.allow.filter((subject) => subject.includes('api-key-revocations'))).toEqual([
      'sb.api-key-revocations.v1',
    ]);
    for (const service of ['numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'] as const) {
      const permissions = busPermissions(service, 'sb');
      expect(
        [...permissions.publish.allow, ...permissions.subscribe.allow].filter((s) => s.includes('api-key')),
      ).toEqual([]);
    }
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
        (subject) =>
          subject.startsWith('$JS.') &&
          !subject.includes('SB_WEBHOOKS') &&
          !subject.includes('SB_PROVIDER') &&
          !subject.includes('SB_DEAD_LETTERS'),
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
      // It owns WEBHOOKS, which the gateway consumes: it replays that stream's dead letters when asked.
      'sb.dead-letters.v1.replay.webhook-dispatcher',
      // Heard on plain subscriptions by every replica (ADR 0075); no one else may subscribe to events.
      'sb.events.v1.number.updated',
      'sb.events.v1.number.released',
    ]);
    // It publishes copies of its signed deliveries for listeners (ADR 0128) on plain NATS; only the gateway reads them.
    expect(dispatcher.publish.allow.filter((subject) => subject.includes('webhook-copies'))).toEqual([
      'sb.webhook-copies.v1.>',
    ]);
    for (const service of ['numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'] as const)
      expect(busPermissions(service, 'sb').subscribe.allow.filter((s) => s.includes('webhook-copies'))).toEqual([]);
    for (const service of ['numbers-billing', 'calls-media', 'lostfound'] as const)
      expect(busPermissions(service, 'sb').subscribe.allow.filter((s) => s.startsWith('sb.events.'))).toEqual([]);
    // The gateway hears one event on a plain subscription: a release, which ends the number's listen streams.
    expect(busPermissions('gateway', 'sb').subscribe.allow.filter((s) => s.startsWith('sb.events.'))).toEqual([
      'sb.events.v1.number.released',
    ]);
    expect(busPermissions('calls-media', 'sb').publish.allow).toContain('sb.events.v1.call.>');
    // Live call events for the gateway's streams, and the simulated provider's question to numbers-billing.
    expect(busPermissions('calls-media', 'sb').publish.allow).toEqual(
      expect.arrayContaining(['sb.calls-live.v1.>', 'sb.numbers.v1.service-number.get']),
    );
    expect(busPermissions('calls-media', '*').publish.allow).toContain('$JS.API.STREAM.CREATE.*');
  });

  it('lets each consumer write only its own dead letters, each owner replay only its stream’s, the gateway read all', () => {
    const dead = (service: ServiceName) =>
      busPermissions(service, 'sb').publish.allow.filter(
        (s) => s.includes('DEAD_LETTERS') || s.includes('dead-letters'),
      );
    // lostfound consumes one durable and owns a stream nobody consumes: it writes that durable's records, replays none.
    expect(dead('lostfound')).toEqual([
      '$JS.API.STREAM.INFO.SB_DEAD_LETTERS',
      '$JS.API.STREAM.CREATE.SB_DEAD_LETTERS',
      'sb.dead-letters.v1.records.letter.lostfound-lost-item-reports.*',
      'sb.dead-letters.v1.records.excused.lostfound-lost-item-reports.*',
      '$JS.API.DIRECT.GET.SB_DEAD_LETTERS.sb.dead-letters.v1.records.excused.lostfound-lost-item-reports.*',
    ]);
    expect(busPermissions('lostfound', 'sb').subscribe.allow.filter((s) => s.includes('dead-letters'))).toEqual([]);
    // calls-media owns CALLS: it reads and marks replayed the dead letters of the durables on CALLS, no others.
    const callsMedia = dead('calls-media');
    expect(callsMedia).toEqual(
      expect.arrayContaining([
        'sb.dead-letters.v1.records.replayed.numbers-billing-talk-time.*',
        '$JS.API.DIRECT.GET.SB_DEAD_LETTERS.sb.dead-letters.v1.records.letter.numbers-billing-talk-time.*',
        '$JS.API.DIRECT.GET.SB_DEAD_LETTERS.sb.dead-letters.v1.records.letter.lostfound-lost-item-reports.*',
      ]),
    );
    expect(callsMedia.filter((s) => s.includes('.letter.numbers-billing-stripe-events'))).toEqual([]);
    expect(callsMedia.filter((s) => s.includes('.replayed.calls-media-'))).toEqual([]);
    expect(busPermissions('calls-media', 'sb').subscribe.allow).toContain('sb.dead-letters.v1.replay.calls-media');
    // Only the gateway reads any record (a direct read without a subject cannot be scoped), and asks for replays.
    for (const service of ['numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'] as const) {
      expect(
        dead(service).filter((s) => s === '$JS.API.DIRECT.GET.SB_DEAD_LETTERS' || s.endsWith('DEAD_LETTERS.>')),
      ).toEqual([]);
      expect(dead(service).filter((s) => s.startsWith('sb.dead-letters.v1.replay.'))).toEqual([]);
    }
    expect(dead('gateway')).toEqual(
      expect.arrayContaining([
        '$JS.API.DIRECT.GET.SB_DEAD_LETTERS',
        '$JS.API.DIRECT.GET.SB_DEAD_LETTERS.>',
        'sb.dead-letters.v1.records.replayed.calls-media-retell-calls.*',
        'sb.dead-letters.v1.replay.numbers-billing',
        'sb.dead-letters.v1.replay.calls-media',
        'sb.dead-letters.v1.replay.webhook-dispatcher',
      ]),
    );
    expect(dead('gateway').filter((s) => s.startsWith('sb.dead-letters.v1.replay.'))).toHaveLength(3);
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
