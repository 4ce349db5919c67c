import {
  API_KEY_REVOCATIONS_SUBJECT,
  LIVE_CALLS_SUBJECT,
  ServiceNumberRpc,
  LostItemReportRpc,
  NumberReleasedEvent,
  NumberUpdatedEvent,
  STREAMS,
  SERVICES,
  WEBHOOK_COPIES_SUBJECT,
  WebhookTargetRpc,
  deadLetterReplayRpc,
  healthRpc,
  type ServiceName,
  type StreamDefinition,
} from '@switchboard/contracts';
import { DEAD_LETTERS_STREAM, deadLetterSubject } from './dead-letter-subjects';
import { eventSubject, rpcSubject, streamName } from './messaging.config';

/**
 * Who may do what on the bus: the one definition of every service's NATS grants (docs/adr/0133-messaging.md).
 * `natsServerConfig` renders it into the nats-server users of `npm start`, the tests and the deploy manifests, so
 * a grant missing here fails a test the same way it would fail in production.
 *
 * Subjects are written below the deployment prefix; streams and durables name exactly what the service touches.
 */
export interface ServiceGrants {
  /** Request subjects the service answers (in its queue group); its health subject is added. */
  readonly serves: readonly string[];
  /** Request subjects the service may send. */
  readonly requests: readonly string[];
  /** Subjects inside `requests` it may not send after all (internal subjects of a served wildcard). */
  readonly refused?: readonly string[];
  /** The stream(s) it owns: it publishes its events there (through its outbox relay). */
  readonly publishes?: StreamDefinition | readonly StreamDefinition[];
  /** Streams it reads, with its durable consumers on each (names as the consumers declare them). */
  readonly consumes?: readonly { stream: StreamDefinition; durables: readonly string[] }[];
  /**
   * Event types it also hears as they are published, on plain subscriptions (no acknowledgement, nothing kept):
   * for what each replica must learn at once, such as a dispatcher forgetting a webhook target (ADR 0075).
   */
  readonly hears?: readonly string[];
  /**
   * Subjects (below the prefix) it publishes on plain core NATS, no stream, nothing kept: copies only a connected
   * listener wants, such as the dispatcher's signed deliveries for `webhook/listen` (ADR 0128).
   */
  readonly broadcasts?: readonly string[];
  /** Subjects (below the prefix) it subscribes to on plain core NATS, another service's `broadcasts`. */
  readonly follows?: readonly string[];
  /** Serves the operator API: reads every dead letter, and asks each stream's owner to replay its own. */
  readonly readsDeadLetters?: boolean;
}

/** Copies of signed webhook deliveries, per account and number (docs/adr/0128-webhook-signatures-secrets-and-listen.md). */
const WEBHOOK_COPIES = `${WEBHOOK_COPIES_SUBJECT}.>`;

/** Revoked API keys, announced by the gateway replica that revoked them to every replica (ADR 0128). */
const API_KEY_REVOCATIONS = API_KEY_REVOCATIONS_SUBJECT;

/** Each account's live call events, published by calls-media as they are applied (docs/live-calls.md). */
const LIVE_CALLS = `${LIVE_CALLS_SUBJECT}.>`;

/** Every service's public request subjects, as the gateway forwards them. */
const PUBLIC_REQUESTS = ['billing.v1.>', 'numbers.v1.>', 'calls.v1.>', 'lostfound.v1.>', 'webhooks.v1.>'];

export const BUS_GRANTS: Readonly<Record<ServiceName, ServiceGrants>> = {
  gateway: {
    serves: [],
    requests: [
      ...PUBLIC_REQUESTS,
      ...SERVICES.filter((service) => service !== 'gateway').map((service) => healthRpc(service).subject),
    ],
    // Internal: only webhook-dispatcher asks where a number's webhooks go (refused even if a wildcard above grew).
    refused: [WebhookTargetRpc.subject, LostItemReportRpc.subject],
    // Verified provider webhooks, through its outbox (docs/adr/0083-real-providers.md).
    publishes: STREAMS.provider,
    // `webhook.endpoint_disabled`: the account's owners are mailed (ADR 0075).
    consumes: [{ stream: STREAMS.webhooks, durables: ['gateway-endpoint-alerts'] }],
    // A released number's `webhook/listen` streams end on every replica (ADR 0128).
    hears: [NumberReleasedEvent.type],
    // Each replica tells every other of a key it revoked: their `webhook/listen` streams on that key end (ADR 0128).
    broadcasts: [API_KEY_REVOCATIONS],
    // A number's signed deliveries, for its connected `webhook/listen` streams, and the revocations (ADR 0128); the
    // live events of the accounts with a live stream open (docs/live-calls.md).
    follows: [WEBHOOK_COPIES, API_KEY_REVOCATIONS, LIVE_CALLS],
    // The operator API's dead letters (docs/operations.md, "Dead letters").
    readsDeadLetters: true,
  },
  'numbers-billing': {
    serves: ['billing.v1.>', 'numbers.v1.>', WebhookTargetRpc.subject],
    requests: [],
    // billing.balance_low and billing.top_up_failed are account-level: a stream of their own (ADR 0131).
    publishes: [STREAMS.numbers, STREAMS.billing],
    consumes: [
      { stream: STREAMS.calls, durables: ['numbers-billing-talk-time', 'numbers-billing-talk-time-adjustments'] },
      // Stripe's payment results, verified by the gateway (ADRs 0083 and 0131); only where Stripe is configured.
      { stream: STREAMS.provider, durables: ['numbers-billing-stripe-events'] },
    ],
  },
  'calls-media': {
    // Internal: only lostfound reads a call's lost-item report, the caller's phone included (ADR 0079).
    serves: ['calls.v1.>', LostItemReportRpc.subject],
    // The simulated provider takes calls only to numbers in service: numbers-billing's record says (docs/live-calls.md).
    requests: [ServiceNumberRpc.subject],
    publishes: STREAMS.calls,
    // Each live call event, for the gateway's live streams (docs/live-calls.md).
    broadcasts: [LIVE_CALLS],
    consumes: [
      {
        stream: STREAMS.numbers,
        durables: [
          'calls-media-number-provisioned',
          'calls-media-number-updated',
          'calls-media-number-released',
          // The analysis fields of each number's agent (docs/call-analysis.md).
          'calls-media-analysis-fields',
        ],
      },
      // Calls reported by Retell and Twilio, verified by the gateway (ADR 0083).
      { stream: STREAMS.provider, durables: ['calls-media-retell-calls', 'calls-media-twilio-callbacks'] },
    ],
  },
  lostfound: {
    serves: ['lostfound.v1.>'],
    requests: [LostItemReportRpc.subject],
    publishes: STREAMS.lostfound,
    // Calls whose agent took a lost-item report become claims (docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md).
    consumes: [{ stream: STREAMS.calls, durables: ['lostfound-lost-item-reports'] }],
  },
  'webhook-dispatcher': {
    serves: ['webhooks.v1.>'],
    requests: [WebhookTargetRpc.subject],
    // `webhook.endpoint_disabled` (ADR 0075), through its outbox.
    publishes: STREAMS.webhooks,
    consumes: [
      // call.completed webhooks, and the opt-in call.started and call.updated.
      {
        stream: STREAMS.calls,
        durables: ['webhook-dispatcher', 'webhook-dispatcher-call-started', 'webhook-dispatcher-call-updated'],
      },
      // number.past_due and number.released webhooks.
      {
        stream: STREAMS.numbers,
        durables: ['webhook-dispatcher-number-updated', 'webhook-dispatcher-number-released'],
      },
      // billing.balance_low and billing.top_up_failed webhooks, to the numbers that opted in (ADR 0131).
      {
        stream: STREAMS.billing,
        durables: ['webhook-dispatcher-billing-balance-low', 'webhook-dispatcher-billing-top-up-failed'],
      },
    ],
    // Every replica forgets the webhook target it kept for a number that changed (ADR 0075).
    hears: [NumberUpdatedEvent.type, NumberReleasedEvent.type],
    // A copy of each signed delivery, for the gateway's `webhook/listen` streams (ADR 0128).
    broadcasts: [WEBHOOK_COPIES],
  },
};

/**
 * Written in place of the prefix, a permission covers every deployment on the server: the tests' server, where each
 * test file has a prefix of its own. Stream names then become a wildcard token too (a token cannot be half a
 * wildcard), so on that server a service may manage same-named streams of any prefix.
 */
export const ANY_PREFIX = '*';

/** nats-server's `permissions` block of one user. */
export interface NatsPermissions {
  publish: { allow: string[]; deny?: string[] };
  subscribe: { allow: string[] };
  /** Reply once to each request received (the reply subject is the requester's inbox). */
  allow_responses?: boolean;
}

/**
 * The inbox a service's connection receives its replies on (`inboxPrefix`). Each user subscribes only below its
 * own, so no client can read the replies sent to another (the default `_INBOX.>` would be shared by all).
 */
export function inboxPrefix(service: ServiceName): string {
  return `_INBOX.${service}`;
}

/** The nats-server permissions of one service's user, for one deployment prefix (or `ANY_PREFIX`). */
export function busPermissions(service: ServiceName, prefix: string): NatsPermissions {
  const grants = BUS_GRANTS[service];
  const config = { prefix };
  const stream = (definition: StreamDefinition) => (prefix === ANY_PREFIX ? '*' : streamName(config, definition.name));
  const publish: string[] = grants.requests.map((subject) => rpcSubject(config, subject));
  const subscribe: string[] = [`${inboxPrefix(service)}.>`];
  if (grants.serves.length > 0) {
    subscribe.push(
      ...grants.serves.map((subject) => rpcSubject(config, subject)),
      rpcSubject(config, healthRpc(service).subject),
    );
  }
  const owned: readonly StreamDefinition[] =
    grants.publishes === undefined
      ? []
      : Array.isArray(grants.publishes)
        ? grants.publishes
        : [grants.publishes as StreamDefinition];
  const streams = [...owned, ...(grants.consumes ?? []).map((c) => c.stream)];
  if (streams.length > 0) publish.push('$JS.API.INFO');
  for (const definition of new Set(streams)) {
    // Publishers and consumers both create a missing stream, so start-up order does not matter (jetstream.ts).
    publish.push(`$JS.API.STREAM.INFO.${stream(definition)}`, `$JS.API.STREAM.CREATE.${stream(definition)}`);
  }
  for (const definition of owned) publish.push(eventSubject(config, definition.types));
  for (const { stream: definition, durables } of grants.consumes ?? []) {
    for (const durable of durables) {
      const at = `${stream(definition)}.${durable}`;
      publish.push(
        `$JS.API.CONSUMER.INFO.${at}`,
        `$JS.API.CONSUMER.DURABLE.CREATE.${at}`,
        `$JS.API.CONSUMER.CREATE.${at}`,
        `$JS.API.CONSUMER.CREATE.${at}.>`,
        `$JS.API.CONSUMER.MSG.NEXT.${at}`,
        `$JS.ACK.${at}.>`,
      );
    }
  }
  publish.push(...deadLetterGrants(service, prefix));
  if (servesDeadLetterReplays(service)) {
    subscribe.push(rpcSubject(config, deadLetterReplayRpc(service).subject));
  }
  for (const type of grants.hears ?? []) subscribe.push(eventSubject(config, type));
  for (const subject of grants.broadcasts ?? []) publish.push(rpcSubject(config, subject));
  for (const subject of grants.follows ?? []) subscribe.push(rpcSubject(config, subject));
  const permissions: NatsPermissions = { publish: { allow: publish }, subscribe: { allow: subscribe } };
  if (grants.refused?.length) permissions.publish.deny = grants.refused.map((subject) => rpcSubject(config, subject));
  if (grants.serves.length > 0) permissions.allow_responses = true;
  return permissions;
}

/**
 * Whether the service answers `dead-letters.v1.replay.<service>`: it serves requests and owns a stream someone
 * consumes (the gateway, which serves none, replays its provider stream's dead letters itself).
 */
export function servesDeadLetterReplays(service: ServiceName): boolean {
  return BUS_GRANTS[service].serves.length > 0 && ownedDurables(service).length > 0;
}

/** Every durable consuming one of the streams `service` publishes: whose dead letters it may replay. */
function ownedDurables(service: ServiceName): string[] {
  const owned = new Set(streamsOwnedBy(service).map((definition) => definition.name));
  return Object.values(BUS_GRANTS).flatMap((grants) =>
    (grants.consumes ?? []).filter((c) => owned.has(c.stream.name)).flatMap((c) => c.durables),
  );
}

/** The streams a service publishes (owns). */
export function streamsOwnedBy(service: ServiceName): readonly StreamDefinition[] {
  const publishes = BUS_GRANTS[service].publishes;
  if (publishes === undefined) return [];
  return 'name' in publishes ? [publishes] : publishes;
}

/**
 * The dead-letter stream's grants (docs/operations.md, "Dead letters"): a consumer writes its durables' dead letters
 * and excused deliveries, and reads the latter back; a stream's owner reads the dead letters of its stream's
 * durables and marks them replayed (the republishing itself is its `publishes`); the operator API's server reads
 * every record (a direct read with no subject in its API subject can read any, so it is granted only there) and
 * asks the owners to replay.
 */
function deadLetterGrants(service: ServiceName, prefix: string): string[] {
  const grants = BUS_GRANTS[service];
  const config = { prefix };
  const stream = prefix === ANY_PREFIX ? '*' : streamName(config, DEAD_LETTERS_STREAM);
  const record = (kind: 'letter' | 'excused' | 'replayed', durable: string) =>
    rpcSubject(config, deadLetterSubject(kind, durable, '*'));
  const consumed = (grants.consumes ?? []).flatMap((c) => c.durables);
  const replayed = grants.serves.length > 0 || grants.readsDeadLetters ? ownedDurables(service) : [];
  const publish: string[] = [];
  for (const durable of consumed) {
    publish.push(
      record('letter', durable),
      record('excused', durable),
      `$JS.API.DIRECT.GET.${stream}.${record('excused', durable)}`,
    );
  }
  for (const durable of replayed) {
    publish.push(record('replayed', durable));
    if (grants.readsDeadLetters) continue;
    publish.push(
      `$JS.API.DIRECT.GET.${stream}.${record('letter', durable)}`,
      `$JS.API.DIRECT.GET.${stream}.${record('replayed', durable)}`,
    );
  }
  if (grants.readsDeadLetters) {
    publish.push(`$JS.API.DIRECT.GET.${stream}`, `$JS.API.DIRECT.GET.${stream}.>`);
    for (const owner of SERVICES) {
      if (owner !== service && servesDeadLetterReplays(owner)) {
        publish.push(rpcSubject(config, deadLetterReplayRpc(owner).subject));
      }
    }
  }
  if (publish.length === 0) return [];
  return [`$JS.API.STREAM.INFO.${stream}`, `$JS.API.STREAM.CREATE.${stream}`, ...new Set(publish)];
}

/** One user of the generated server configuration. */
export interface NatsUser {
  user: string;
  /** The password itself, or `{ env }`: a variable nats-server reads when it loads the file (deploy manifests). */
  password: string | { env: string };
  /** None: every subject (a test-only inspector; never in a deployment). */
  permissions?: NatsPermissions;
}

export interface NatsServerConfigOptions {
  /** `host:port` to listen on. */
  listen: string;
  /** JetStream's store directory. */
  storeDir: string;
  users: NatsUser[];
  /** Serve TLS only (`tls://` URLs), with these files. */
  tls?: { certFile: string; keyFile: string };
  /** The monitoring port (`/healthz`, `/varz`), for the server's own probes. */
  monitorPort?: number;
  /** Written as a comment at the top. */
  header?: string;
}

/** The users of one deployment: each service with its own password and its grants for `prefix`. */
export function serviceUsers(prefix: string, password: (service: ServiceName) => NatsUser['password']): NatsUser[] {
  return SERVICES.map((service) => ({
    user: service,
    password: password(service),
    permissions: busPermissions(service, prefix),
  }));
}

/**
 * A nats-server configuration file (nats-server 2.9 syntax) with JetStream, the given users and optionally TLS.
 * There is no anonymous user: a client without credentials is refused.
 */
export function natsServerConfig(options: NatsServerConfigOptions): string {
  const q = (value: string) => JSON.stringify(value);
  const list = (values: readonly string[]) => `[${values.map(q).join(', ')}]`;
  const lines: string[] = [];
  if (options.header) lines.push(...options.header.split('\n').map((line) => `# ${line}`.trimEnd()));
  lines.push(`listen: ${q(options.listen)}`, `jetstream: { store_dir: ${q(options.storeDir)} }`);
  if (options.monitorPort) lines.push(`http_port: ${options.monitorPort}`);
  if (options.tls) lines.push(`tls: { cert_file: ${q(options.tls.certFile)}, key_file: ${q(options.tls.keyFile)} }`);
  lines.push('authorization: {', '  users: [');
  for (const user of options.users) {
    // A variable reference must stay unquoted for nats-server to expand it.
    const password = typeof user.password === 'string' ? q(user.password) : `$${user.password.env}`;
    lines.push(`    { user: ${q(user.user)}, password: ${password}${user.permissions ? ', permissions: {' : ' }'}`);
    const p = user.permissions;
    if (!p) continue;
    lines.push(
      `        publish: { allow: ${list(p.publish.allow)}${p.publish.deny ? `, deny: ${list(p.publish.deny)}` : ''} }`,
    );
    lines.push(`        subscribe: { allow: ${list(p.subscribe.allow)} }`);
    if (p.allow_responses) lines.push('        allow_responses: true');
    lines.push('    } }');
  }
  lines.push('  ]', '}', '');
  return lines.join('\n');
}
