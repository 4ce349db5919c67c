// The operator CLI's commands: one per operator route of the gateway (cli.spec.ts checks that against the admin
// controllers' decorators, so a route added there without a command here fails the tests). Each command names its
// route as the controllers do; its positional arguments fill the route's parameters in order, and its options make
// the body or the query.
export class UsageError extends Error {}

export function need(value, what) {
  if (value === undefined || value === '') throw new UsageError(`missing ${what}`);
  return value;
}

function int(value) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new UsageError(`not a whole number: ${value}`);
  return n;
}

function compact(object) {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

export const COMMANDS = [
  {
    name: 'accounts create',
    method: 'POST',
    route: '/admin/accounts',
    options: '--name NAME [--balance CENTS] [--tier starter|growth|scale]',
    body: (o) => compact({ name: o.name, balance_cents: int(o.balance), tier: o.tier }),
  },
  { name: 'accounts get', method: 'GET', route: '/admin/accounts/:account_id' },
  {
    name: 'accounts update',
    method: 'PATCH',
    route: '/admin/accounts/:account_id',
    options: '[--tier T] [--number-limit N] [--top-up-threshold CENTS --top-up-amount CENTS | --no-top-up]',
    body: (o) =>
      compact({
        tier: o.tier,
        number_limit: int(o['number-limit']),
        auto_top_up: o['no-top-up']
          ? null
          : o['top-up-amount']
            ? { threshold_cents: int(o['top-up-threshold']) ?? 0, amount_cents: int(o['top-up-amount']) }
            : undefined,
      }),
  },
  {
    name: 'accounts credit',
    method: 'POST',
    route: '/admin/accounts/:account_id/credits',
    options: '--amount CENTS',
    body: (o) => ({ amount_cents: int(need(o.amount, '--amount')) }),
  },
  {
    name: 'accounts ledger',
    method: 'GET',
    route: '/admin/accounts/:account_id/ledger',
    options: '[--limit N] [--starting-after LEDGER_ENTRY_ID]',
    query: (o) => ({ limit: o.limit, starting_after: o['starting-after'] }),
  },
  {
    name: 'keys create',
    method: 'POST',
    route: '/admin/accounts/:account_id/api-keys',
    options: '[--allow IP_OR_CIDR,...]',
    body: (o) => (o.allow ? { ip_allowlist: o.allow.split(',').map((s) => s.trim()) } : {}),
  },
  { name: 'keys revoke', method: 'DELETE', route: '/admin/accounts/:account_id/api-keys/:key_id' },
  {
    name: 'locations create',
    method: 'POST',
    route: '/admin/accounts/:account_id/locations',
    options: '--name NAME [--no-lostfound] [--hold-days N]',
    body: (o) =>
      compact({ name: need(o.name, '--name'), lostfound_enabled: !o['no-lostfound'], hold_days: int(o['hold-days']) }),
  },
  {
    name: 'locations update',
    method: 'PATCH',
    route: '/admin/accounts/:account_id/locations/:location_id',
    options: '[--hold-days N] [--lostfound | --no-lostfound]',
    body: (o) =>
      compact({
        hold_days: int(o['hold-days']),
        lostfound_enabled: o['no-lostfound'] ? false : o.lostfound ? true : undefined,
      }),
  },
  {
    name: 'locations rotate-slug',
    method: 'POST',
    route: '/admin/accounts/:account_id/locations/:location_id/public-slug',
  },
  {
    name: 'provider stock',
    method: 'PUT',
    route: '/admin/provider/stock/:area_code',
    options: '--available N',
    body: (o) => ({ available: int(need(o.available, '--available')) }),
  },
  {
    name: 'provider faults',
    method: 'PUT',
    route: '/admin/provider/faults',
    options: '--provision-failures N',
    body: (o) => ({ provision_failures: int(need(o['provision-failures'], '--provision-failures')) }),
  },
  {
    name: 'provider call',
    method: 'POST',
    route: '/admin/provider/calls',
    options:
      '--to E164 --caller E164 --duration SECONDS --outcome OUTCOME [--direction D] [--status S] [--started-at ISO_DATE_TIME] [--transcript JSON] [--recording] [--lost-item JSON]',
    body: (o) =>
      compact({
        to: need(o.to, '--to'),
        caller: need(o.caller, '--caller'),
        duration_sec: int(need(o.duration, '--duration')),
        outcome: need(o.outcome, '--outcome'),
        direction: o.direction,
        status: o.status,
        started_at: o['started-at'],
        transcript: o.transcript ? parseJson(o.transcript, '--transcript') : undefined,
        recording: o.recording ? true : undefined,
        lost_item: o['lost-item'] ? parseJson(o['lost-item'], '--lost-item') : undefined,
      }),
  },
  {
    name: 'payments faults',
    method: 'PUT',
    route: '/admin/payments/faults',
    options: '--charge-failures N',
    body: (o) => ({ charge_failures: int(need(o['charge-failures'], '--charge-failures')) }),
  },
  {
    name: 'billing run',
    method: 'POST',
    route: '/admin/billing/run',
    options: '[--now ISO_DATE_TIME]',
    body: (o) => ({ now: o.now ?? new Date().toISOString() }),
  },
  {
    name: 'users invite',
    method: 'POST',
    route: '/admin/accounts/:account_id/users',
    options: 'EMAIL [--role owner|developer|viewer|staff]',
    positionalBody: 'email',
    body: (o) => compact({ email: need(o.email, 'EMAIL'), role: o.role }),
  },
  {
    name: 'email list',
    method: 'GET',
    route: '/admin/email',
    options: '--to ADDRESS',
    query: (o) => ({ to: need(o.to, '--to') }),
  },
  {
    name: 'sms list',
    method: 'GET',
    route: '/admin/sms',
    options: '--to E164',
    query: (o) => ({ to: need(o.to, '--to') }),
  },
  {
    name: 'webhooks deliveries',
    method: 'GET',
    route: '/admin/webhook-deliveries',
    options: '--number num_N [--limit N]',
    query: (o) => ({ number_id: need(o.number, '--number'), limit: o.limit }),
  },
];

/** Every option any command takes, for node:util parseArgs. */
export const OPTIONS = {
  name: { type: 'string' },
  balance: { type: 'string' },
  tier: { type: 'string' },
  'number-limit': { type: 'string' },
  'top-up-threshold': { type: 'string' },
  'top-up-amount': { type: 'string' },
  'no-top-up': { type: 'boolean' },
  amount: { type: 'string' },
  limit: { type: 'string' },
  'starting-after': { type: 'string' },
  allow: { type: 'string' },
  'no-lostfound': { type: 'boolean' },
  available: { type: 'string' },
  'provision-failures': { type: 'string' },
  'charge-failures': { type: 'string' },
  to: { type: 'string' },
  caller: { type: 'string' },
  duration: { type: 'string' },
  outcome: { type: 'string' },
  direction: { type: 'string' },
  status: { type: 'string' },
  'started-at': { type: 'string' },
  transcript: { type: 'string' },
  recording: { type: 'boolean' },
  now: { type: 'string' },
  number: { type: 'string' },
  role: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${what} is not JSON: ${text}`);
  }
}

const routeParams = (route) => [...route.matchAll(/:(\w+)/g)].map(([, param]) => param);

/** "accounts get ACCOUNT_ID", for the help text. */
export function usageOf(command) {
  return [command.name, ...routeParams(command.route).map((param) => param.toUpperCase()), command.options]
    .filter(Boolean)
    .join(' ');
}

/** The HTTP request a command makes from its arguments: { method, path, body }. */
export function requestOf(command, positionals, options) {
  const params = routeParams(command.route);
  // A command may take one more positional argument after the route's, as a body field (`users invite ACCOUNT EMAIL`).
  if (command.positionalBody) {
    if (positionals.length > params.length + 1)
      throw new UsageError(`unexpected argument: ${positionals[params.length + 1]} (usage: ${usageOf(command)})`);
    options = { ...options, [command.positionalBody]: positionals[params.length] };
    positionals = positionals.slice(0, params.length);
  }
  if (positionals.length > params.length)
    throw new UsageError(`unexpected argument: ${positionals[params.length]} (usage: ${usageOf(command)})`);
  let next = 0;
  let path = command.route.replace(/:(\w+)/g, (_, param) =>
    encodeURIComponent(need(positionals[next++], param.toUpperCase())),
  );
  const query = new URLSearchParams(compact(command.query?.(options) ?? {}));
  if (query.size > 0) path += `?${query}`;
  return { method: command.method, path, body: command.body?.(options) };
}
