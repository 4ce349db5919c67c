#!/usr/bin/env node
// The operator CLI: every route of the operator API (shared contract) from the command line.
//   npm run admin -- accounts create --name "Acme" --balance 5000
//   npm run admin -- keys create acct_... [--allow 203.0.113.0/24,2001:db8::/32]
// It talks to ADMIN_URL (default http://127.0.0.1:$ADMIN_PORT, port 3001) with ADMIN_TOKEN, or with the
// development token `npm start` keeps in DATA_DIR/admin-token. Answers are printed as JSON; a 4xx/5xx exits 1.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..', '..');

const COMMANDS = {
  'accounts create': { usage: '--name NAME [--balance CENTS] [--tier starter|growth|scale]', run: (a, o) => ['POST', '/admin/accounts', compact({ name: o.name, balance_cents: int(o.balance), tier: o.tier })] },
  'accounts get': { usage: 'ACCOUNT_ID', run: ([id]) => ['GET', `/admin/accounts/${need(id, 'ACCOUNT_ID')}`] },
  'accounts update': {
    usage: 'ACCOUNT_ID [--tier T] [--number-limit N] [--top-up-threshold CENTS --top-up-amount CENTS | --no-top-up]',
    run: ([id], o) => [
      'PATCH',
      `/admin/accounts/${need(id, 'ACCOUNT_ID')}`,
      compact({
        tier: o.tier,
        number_limit: int(o['number-limit']),
        auto_top_up: o['no-top-up'] ? null : o['top-up-amount'] ? { threshold_cents: int(o['top-up-threshold']) ?? 0, amount_cents: int(o['top-up-amount']) } : undefined,
      }),
    ],
  },
  'accounts credit': { usage: 'ACCOUNT_ID --amount CENTS', run: ([id], o) => ['POST', `/admin/accounts/${need(id, 'ACCOUNT_ID')}/credits`, { amount_cents: int(need(o.amount, '--amount')) }] },
  'accounts ledger': { usage: 'ACCOUNT_ID', run: ([id]) => ['GET', `/admin/accounts/${need(id, 'ACCOUNT_ID')}/ledger`] },
  'keys create': { usage: 'ACCOUNT_ID [--allow IP_OR_CIDR,...]', run: ([id], o) => ['POST', `/admin/accounts/${need(id, 'ACCOUNT_ID')}/api-keys`, o.allow ? { ip_allowlist: o.allow.split(',').map((s) => s.trim()) } : {}] },
  'keys revoke': { usage: 'ACCOUNT_ID KEY_ID', run: ([id, key]) => ['DELETE', `/admin/accounts/${need(id, 'ACCOUNT_ID')}/api-keys/${need(key, 'KEY_ID')}`] },
  'locations create': { usage: 'ACCOUNT_ID --name NAME [--no-lostfound]', run: ([id], o) => ['POST', `/admin/accounts/${need(id, 'ACCOUNT_ID')}/locations`, { name: need(o.name, '--name'), lostfound_enabled: !o['no-lostfound'] }] },
  'provider stock': { usage: 'AREA_CODE --available N', run: ([area], o) => ['PUT', `/admin/provider/stock/${need(area, 'AREA_CODE')}`, { available: int(need(o.available, '--available')) }] },
  'provider faults': { usage: '--provision-failures N', run: (_, o) => ['PUT', '/admin/provider/faults', { provision_failures: int(need(o['provision-failures'], '--provision-failures')) }] },
  'provider call': {
    usage: '--to E164 --caller E164 --duration SECONDS --outcome OUTCOME [--transcript JSON] [--recording]',
    run: (_, o) => [
      'POST',
      '/admin/provider/calls',
      compact({
        to: need(o.to, '--to'),
        caller: need(o.caller, '--caller'),
        duration_sec: int(need(o.duration, '--duration')),
        outcome: need(o.outcome, '--outcome'),
        transcript: o.transcript ? JSON.parse(o.transcript) : undefined,
        recording: o.recording ? true : undefined,
      }),
    ],
  },
  'billing run': { usage: '[--now ISO_DATE_TIME]', run: (_, o) => ['POST', '/admin/billing/run', { now: o.now ?? new Date().toISOString() }] },
  'sms list': { usage: '--to E164', run: (_, o) => ['GET', `/admin/sms?to=${encodeURIComponent(need(o.to, '--to'))}`] },
  'webhooks deliveries': { usage: '--number num_N', run: (_, o) => ['GET', `/admin/webhook-deliveries?number_id=${encodeURIComponent(need(o.number, '--number'))}`] },
};

const OPTIONS = {
  name: { type: 'string' }, balance: { type: 'string' }, tier: { type: 'string' }, 'number-limit': { type: 'string' },
  'top-up-threshold': { type: 'string' }, 'top-up-amount': { type: 'string' }, 'no-top-up': { type: 'boolean' },
  amount: { type: 'string' }, allow: { type: 'string' }, 'no-lostfound': { type: 'boolean' }, available: { type: 'string' },
  'provision-failures': { type: 'string' }, to: { type: 'string' }, caller: { type: 'string' }, duration: { type: 'string' },
  outcome: { type: 'string' }, transcript: { type: 'string' }, recording: { type: 'boolean' }, now: { type: 'string' },
  number: { type: 'string' }, help: { type: 'boolean', short: 'h' },
};

class UsageError extends Error {}
function need(value, what) {
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

function help() {
  console.log('usage: npm run admin -- <command> [arguments]\n');
  for (const [name, { usage }] of Object.entries(COMMANDS)) console.log(`  ${name} ${usage}`);
  console.log('\nenvironment: ADMIN_URL (default http://127.0.0.1:3001), ADMIN_TOKEN (default: DATA_DIR/admin-token)');
}

function adminToken() {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = join(resolve(root, process.env.DATA_DIR || '.data'), 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new UsageError(`no ADMIN_TOKEN set and no ${file} (start the system with npm start first)`);
}

async function main() {
  const { values, positionals } = parseArgs({ options: OPTIONS, allowPositionals: true, strict: true });
  const name = positionals.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (values.help || !command) {
    help();
    return values.help ? 0 : 2;
  }
  const [method, path, body] = command.run(positionals.slice(2), values);
  const base = process.env.ADMIN_URL || `http://127.0.0.1:${process.env.ADMIN_PORT || 3001}`;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken()}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  try {
    console.log(JSON.stringify(JSON.parse(text), null, 2));
  } catch {
    console.log(text);
  }
  return response.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof UsageError || error?.code?.startsWith?.('ERR_PARSE_ARGS') ? `error: ${error.message}` : `error: ${error?.cause?.message ?? error.message}`);
    process.exit(2);
  },
);
