// The operator CLI's commands: one per operator route of the gateway (cli.spec.ts checks that against the admin
// controllers' decorators, so a route added there without a command here fails the tests). Each command names its
// route as the controllers do; its positional arguments fill the route's parameters in order, and its options make
// the body or the query. A command's options are declared once, as node:util parseArgs options plus `value` (the
// placeholder its help shows for a string option), `choices` (the values the option takes, shown as `a|b|c` and
// checked before anything is sent) and `required`: the parser and the help line are both made from that
// declaration, so the help cannot list an option the parser refuses (cli.spec.ts parses every one it lists).
import { parseArgs } from 'node:util';

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

function list(value) {
  return value?.split(',').map((item) => item.trim());
}

function compact(object) {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

/** The account tiers (TIERS of libs/contracts; cli.spec.ts compares). */
const TIERS = ['starter', 'growth', 'scale'];
/** What a telephony provider reports: calls-media keeps Twilio's words (provider-call-reports.ts; cli.spec.ts compares). */
export const CALL_DIRECTIONS = ['inbound', 'outbound'];
export const CALL_STATUSES = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];

export const COMMANDS = [
  {
    name: 'accounts create',
    method: 'POST',
    route: '/admin/accounts',
    options: {
      name: { type: 'string', value: 'NAME', required: true },
      balance: { type: 'string', value: 'CENTS' },
      tier: { type: 'string', choices: TIERS },
    },
    body: (o) => compact({ name: o.name, balance_cents: int(o.balance), tier: o.tier }),
  },
  { name: 'accounts get', method: 'GET', route: '/admin/accounts/:account_id' },
  {
    name: 'accounts update',
    method: 'PATCH',
    route: '/admin/accounts/:account_id',
    options: {
      tier: { type: 'string', choices: TIERS },
      'number-limit': { type: 'string', value: 'N' },
      'top-up-threshold': { type: 'string', value: 'CENTS' },
      'top-up-amount': { type: 'string', value: 'CENTS' },
      'no-top-up': { type: 'boolean' },
    },
    body: (o) => {
      if (o['no-top-up'] && (o['top-up-amount'] || o['top-up-threshold']))
        throw new UsageError('--no-top-up turns auto top-up off: give it without --top-up-amount/--top-up-threshold');
      if (o['top-up-threshold'] && !o['top-up-amount'])
        throw new UsageError('--top-up-threshold goes with --top-up-amount (the amount each top-up adds)');
      return compact({
        tier: o.tier,
        number_limit: int(o['number-limit']),
        auto_top_up: o['no-top-up']
          ? null
          : o['top-up-amount']
            ? { threshold_cents: int(o['top-up-threshold']) ?? 0, amount_cents: int(o['top-up-amount']) }
            : undefined,
      });
    },
  },
  {
    name: 'accounts credit',
    method: 'POST',
    route: '/admin/accounts/:account_id/credits',
    options: { amount: { type: 'string', value: 'CENTS', required: true } },
    body: (o) => ({ amount_cents: int(o.amount) }),
  },
  {
    name: 'accounts ledger',
    method: 'GET',
    route: '/admin/accounts/:account_id/ledger',
    options: { limit: { type: 'string', value: 'N' }, 'starting-after': { type: 'string', value: 'LEDGER_ENTRY_ID' } },
    query: (o) => ({ limit: o.limit, starting_after: o['starting-after'] }),
  },
  {
    name: 'keys create',
    method: 'POST',
    route: '/admin/accounts/:account_id/api-keys',
    options: {
      allow: { type: 'string', value: 'IP_OR_CIDR,...' },
      mode: { type: 'string', choices: ['live', 'test'] },
    },
    body: (o) => compact({ ip_allowlist: list(o.allow), mode: o.mode }),
  },
  { name: 'keys revoke', method: 'DELETE', route: '/admin/accounts/:account_id/api-keys/:key_id' },
  {
    name: 'locations create',
    method: 'POST',
    route: '/admin/accounts/:account_id/locations',
    options: {
      name: { type: 'string', value: 'NAME', required: true },
      'no-lostfound': { type: 'boolean' },
      'hold-days': { type: 'string', value: 'N' },
      'sms-countries': { type: 'string', value: 'CC,...' },
    },
    body: (o) =>
      compact({
        name: o.name,
        lostfound_enabled: !o['no-lostfound'],
        hold_days: int(o['hold-days']),
        sms_countries: list(o['sms-countries']),
      }),
  },
  {
    name: 'locations update',
    method: 'PATCH',
    route: '/admin/accounts/:account_id/locations/:location_id',
    options: {
      'hold-days': { type: 'string', value: 'N' },
      lostfound: { type: 'boolean' },
      'no-lostfound': { type: 'boolean' },
    },
    body: (o) => {
      if (o.lostfound && o['no-lostfound']) throw new UsageError('give --lostfound or --no-lostfound, not both');
      return compact({
        hold_days: int(o['hold-days']),
        lostfound_enabled: o['no-lostfound'] ? false : o.lostfound ? true : undefined,
      });
    },
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
    options: { available: { type: 'string', value: 'N', required: true } },
    body: (o) => ({ available: int(o.available) }),
  },
  {
    name: 'provider faults',
    method: 'PUT',
    route: '/admin/provider/faults',
    options: { 'provision-failures': { type: 'string', value: 'N', required: true } },
    body: (o) => ({ provision_failures: int(o['provision-failures']) }),
  },
  {
    name: 'provider call',
    method: 'POST',
    route: '/admin/provider/calls',
    options: {
      to: { type: 'string', value: 'E164', required: true },
      caller: { type: 'string', value: 'E164', required: true },
      duration: { type: 'string', value: 'SECONDS', required: true },
      outcome: { type: 'string', value: 'OUTCOME', required: true },
      direction: { type: 'string', choices: CALL_DIRECTIONS },
      status: { type: 'string', choices: CALL_STATUSES },
      'started-at': { type: 'string', value: 'ISO_DATE_TIME' },
      transcript: { type: 'string', value: 'JSON' },
      recording: { type: 'boolean' },
      'lost-item': { type: 'string', value: 'JSON' },
      analysis: { type: 'string', value: 'JSON' },
      live: { type: 'boolean' },
      'turn-interval': { type: 'string', value: 'MS' },
    },
    notes: [
      '--live plays the call as it happens: its start at once, each --transcript turn --turn-interval ms apart (default 500),',
      'then its end (docs/live-calls.md); the answer comes at once. --turn-interval implies --live.',
      `--transcript '[{"role":"caller","text":"..."},{"role":"agent","text":"..."},...]'; --lost-item, with --outcome lost_item_report: '{"category":"...","description":"...","color":"...","where_lost":"...","lost_at":"YYYY-MM-DD","caller_name":"..."}'`,
      // lostfound drops a report on any other number with a log line only; the 202 cannot tell (ADR 0079).
      'A lost_item_report becomes a claim only when --to is a lost-and-found line (PUT /v1/lostfound/phone-lines/{number_id},',
      'its location with lost-and-found on); to any other number the call is recorded and no claim is filed: the 202 is the same.',
      `--analysis, the agent's post-call analysis: '{"summary":"...","sentiment":"positive|neutral|negative|unknown","successful":true,"custom":{"field":value}}'`,
      "(custom values that do not fit the number's declared analysis_fields are dropped when the call is recorded: docs/call-analysis.md).",
      `--direction: ${CALL_DIRECTIONS[0]} by default; --status: ${CALL_STATUSES[0]} by default, the others as a provider reports a call nobody answered.`,
    ],
    body: (o) =>
      compact({
        to: o.to,
        caller: o.caller,
        duration_sec: int(o.duration),
        outcome: o.outcome,
        direction: o.direction,
        status: o.status,
        started_at: o['started-at'],
        transcript: o.transcript ? parseJson(o.transcript, '--transcript') : undefined,
        recording: o.recording ? true : undefined,
        lost_item: o['lost-item'] ? parseJson(o['lost-item'], '--lost-item') : undefined,
        analysis: o.analysis ? parseJson(o.analysis, '--analysis') : undefined,
        live: o.live || o['turn-interval'] ? compact({ turn_interval_ms: int(o['turn-interval']) }) : undefined,
      }),
  },
  {
    name: 'payments faults',
    method: 'PUT',
    route: '/admin/payments/faults',
    options: { 'charge-failures': { type: 'string', value: 'N', required: true } },
    body: (o) => ({ charge_failures: int(o['charge-failures']) }),
  },
  {
    name: 'billing run',
    method: 'POST',
    route: '/admin/billing/run',
    options: { now: { type: 'string', value: 'ISO_DATE_TIME' } },
    body: (o) => ({ now: o.now ?? new Date().toISOString() }),
  },
  {
    name: 'retention sweep',
    method: 'POST',
    route: '/admin/calls/retention-sweep',
    options: { now: { type: 'string', value: 'ISO_DATE_TIME' } },
    body: (o) => compact({ now: o.now }),
  },
  {
    name: 'users invite',
    method: 'POST',
    route: '/admin/accounts/:account_id/users',
    positionalBody: 'email',
    options: { role: { type: 'string', choices: ['owner', 'developer', 'viewer', 'staff'] } },
    body: (o) => compact({ email: need(o.email, 'EMAIL'), role: o.role }),
  },
  {
    name: 'email list',
    method: 'GET',
    route: '/admin/email',
    options: { to: { type: 'string', value: 'ADDRESS', required: true } },
    query: (o) => ({ to: o.to }),
  },
  {
    name: 'sms list',
    method: 'GET',
    route: '/admin/sms',
    options: { to: { type: 'string', value: 'E164', required: true } },
    query: (o) => ({ to: o.to }),
  },
  {
    name: 'webhooks deliveries',
    method: 'GET',
    route: '/admin/webhook-deliveries',
    options: { number: { type: 'string', value: 'num_N', required: true }, limit: { type: 'string', value: 'N' } },
    query: (o) => ({ number_id: o.number, limit: o.limit }),
  },
  // The messages the durable consumers gave up on (docs/operations.md, "Dead letters"); a replay sends one once.
  {
    name: 'dead-letters list',
    method: 'GET',
    route: '/admin/dead-letters',
    options: { limit: { type: 'string', value: 'N' }, 'starting-after': { type: 'string', value: 'DEAD_LETTER_ID' } },
    query: (o) => ({ limit: o.limit, starting_after: o['starting-after'] }),
  },
  { name: 'dead-letters show', method: 'GET', route: '/admin/dead-letters/:dead_letter_id' },
  { name: 'dead-letters replay', method: 'POST', route: '/admin/dead-letters/:dead_letter_id/replay' },
];

/** What every command also takes. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } };

function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${what} is not JSON: ${text}`);
  }
}

const routeParams = (route) => [...route.matchAll(/:(\w+)/g)].map(([, param]) => param);

/** What the help shows for a string option's value: its placeholder, or its choices as `a|b|c`. */
const placeholderOf = (option) => option.value ?? option.choices.join('|');

/** "--name NAME", "[--recording]": one option as the help shows it. */
function usageOfOption(name, option) {
  const text = option.type === 'string' ? `--${name} ${placeholderOf(option)}` : `--${name}`;
  return option.required ? text : `[${text}]`;
}

/** "accounts get ACCOUNT_ID", "keys create ACCOUNT_ID [--allow IP_OR_CIDR,...] [--mode live|test]": the help's line. */
export function usageOf(command) {
  return [
    command.name,
    ...routeParams(command.route).map((param) => param.toUpperCase()),
    command.positionalBody?.toUpperCase(),
    ...Object.entries(command.options ?? {}).map(([name, option]) => usageOfOption(name, option)),
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The command a command line names and its arguments, parsed with node:util parseArgs from the command's own option
 * declarations (the ones its help line is made from), so an option the help lists is one the parser takes, and an
 * option of another command is refused. `help` for --help/-h; no `command` when the line names none.
 */
export function parseCommandLine(argv) {
  const command = COMMANDS.find((c) => c.name === argv.slice(0, 2).join(' '));
  if (!command) return { help: argv.includes('--help') || argv.includes('-h') };
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(2),
      options: { ...parserOptions(command.options), ...HELP_OPTION },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    if (!error?.code?.startsWith?.('ERR_PARSE_ARGS')) throw error;
    // Node's own text goes on to advise `-- "--name"` for a positional argument, which no command here takes.
    const message =
      error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? `${command.name} has no option ${unknownOption(error.message)}`
        : error.message;
    throw new UsageError(`${message}\nusage: ${usageOf(command)}`);
  }
  const { help, ...values } = parsed.values;
  return { command, help: Boolean(help), positionals: parsed.positionals, values };
}

/** The declarations as node:util parseArgs takes them (it refuses keys of its own it does not know). */
function parserOptions(options = {}) {
  return Object.fromEntries(Object.entries(options).map(([name, { type, short }]) => [name, compact({ type, short })]));
}

/** `--name` out of Node's "Unknown option '--name'. To specify a positional argument ..." (`-x` for a short one). */
function unknownOption(message) {
  return /'(-[^']*)'/.exec(message)?.[1] ?? message;
}

/** The HTTP request a command makes from its arguments: { method, path, body }. */
export function requestOf(command, positionals, options) {
  for (const [name, option] of Object.entries(command.options ?? {})) {
    if (option.required && (options[name] === undefined || options[name] === ''))
      throw new UsageError(`missing --${name} (usage: ${usageOf(command)})`);
    if (option.choices && options[name] !== undefined && !option.choices.includes(options[name]))
      throw new UsageError(
        `--${name} takes ${option.choices.join(', ')}; not ${options[name]} (usage: ${usageOf(command)})`,
      );
  }
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
