// The capacity benchmark's pure computations (bench/capacity.mjs): where the seeded calls go (accounts, numbers, the
// large account), how the retention settings make one month expire, how an export walk cuts its chunks, and what
// measured sizes and rates come to (sizes per million calls, rows per second). Nothing here talks to a database.
import { table } from './common.mjs';

const MIB = 2 ** 20;
export const GIB = 2 ** 30;
export const DAY_MS = 86_400_000;

/**
 * The seed's layout: `numbers` numbers (index 0..numbers-1) and `accounts` accounts (index 0..accounts-1). Account 0
 * is the large account: it holds the first `largeNumbers` numbers and takes `largeShare` of the calls; the other
 * numbers are split into contiguous blocks, one per remaining account (about numbers/accounts each).
 */
export function layout({ numbers, accounts, largeNumbers, largeShare }) {
  if (!(accounts >= 2)) throw new RangeError('at least two accounts: the large one and the others');
  if (!(largeNumbers >= 1 && largeNumbers < numbers)) throw new RangeError('largeNumbers must be in [1, numbers)');
  if (!(numbers - largeNumbers >= accounts - 1)) throw new RangeError('every other account needs a number');
  if (!(largeShare > 0 && largeShare < 1)) throw new RangeError('largeShare must be in (0, 1)');
  return { numbers, accounts, largeNumbers, largeShare };
}

/** The account (index) that holds number `n` (index). */
export function accountOfNumber(l, n) {
  if (n < l.largeNumbers) return 0;
  return 1 + Math.floor(((n - l.largeNumbers) * (l.accounts - 1)) / (l.numbers - l.largeNumbers));
}

/**
 * The number (index) a call goes to, from three uniform draws in [0, 1): `large` decides the large account (below
 * `largeShare`), `u` picks the number: uniformly among the large account's numbers, and among the others by u^2
 * (density 1/sqrt: the first numbers, and the first accounts, are busiest, as a few customers take most calls).
 */
export function numberOfCall(l, large, u) {
  if (large < l.largeShare) return Math.min(l.largeNumbers - 1, Math.floor(u * l.largeNumbers));
  const others = l.numbers - l.largeNumbers;
  return l.largeNumbers + Math.min(others - 1, Math.floor(others * u * u));
}

/** The same mapping as SQL over columns `largeDraw` and `numberDraw` (numbers in [0, 1)): a bigint expression. */
export function numberOfCallSql(l, largeDraw, numberDraw) {
  const others = l.numbers - l.largeNumbers;
  return (
    `(CASE WHEN ${largeDraw} < ${l.largeShare} THEN least(${l.largeNumbers - 1}, floor(${numberDraw} * ${l.largeNumbers}))` +
    ` ELSE ${l.largeNumbers} + least(${others - 1}, floor(${others} * ${numberDraw} * ${numberDraw})) END)::bigint`
  );
}

/** `accountOfNumber` as SQL over a bigint column `n`. */
export function accountOfNumberSql(l, n) {
  return `(CASE WHEN ${n} < ${l.largeNumbers} THEN 0 ELSE 1 + ((${n} - ${l.largeNumbers}) * ${l.accounts - 1}) / ${l.numbers - l.largeNumbers} END)`;
}

/** The id forms the app's contracts accept: `acct_` and 20 of [0-9a-z]; `num_N` from 1; an E.164 service number. */
export const accountId = (a) => `acct_${String(a).padStart(20, '0')}`;
export const numberId = (n) => `num_${n + 1}`;
export const phoneNumber = (n) => `+1${2_025_550_000 + n}`;
export const accountIdSql = (a) => `('acct_' || lpad((${a})::text, 20, '0'))`;
export const numberIdSql = (n) => `('num_' || ((${n}) + 1)::text)`;
export const phoneNumberSql = (n) => `('+1' || (2025550000 + (${n}))::text)`;

/**
 * The pool conversation of call k (0 <= result < pool): a multiplicative hash, so neighbouring calls get unrelated
 * conversations. The SQL form computes the same for a bigint column.
 */
export function conversationOf(k, pool) {
  return Number((BigInt(k) * 2_654_435_761n) % 4_294_967_296n) % pool;
}
export const conversationOfSql = (k, pool) => `((((${k})::bigint * 2654435761) % 4294967296) % ${pool})`;

/** The seeded span in days for `months` months (365 days for 12). */
export const spanDays = (months) => Math.round((months * 365) / 12);

/**
 * The retention period (days) that lets exactly the oldest `expireDays` days of a span of `span` days ending at the
 * anchor expire (the sweep's cutoff is `now - period`; now is the anchor or just after it).
 */
export function retentionDaysExpiring(span, expireDays) {
  if (!(expireDays > 0 && expireDays < span)) throw new RangeError('expireDays must be in (0, span)');
  return span - expireDays;
}

/** Bytes per million calls of `bytes` measured over `calls` calls. */
export function perMillion(bytes, calls) {
  if (!(calls > 0)) return NaN;
  return (bytes / calls) * 1_000_000;
}

/** Rows per second. */
export const rate = (rows, ms) => (ms > 0 ? (rows * 1000) / ms : NaN);

/** `12.3 GiB` / `456 MiB` of bytes. */
export function bytesText(bytes) {
  if (!Number.isFinite(bytes)) return '-';
  if (Math.abs(bytes) >= 1024 * GIB) return `${(bytes / (1024 * GIB)).toFixed(2)} TiB`;
  if (Math.abs(bytes) >= GIB) return `${(bytes / GIB).toFixed(1)} GiB`;
  return `${Math.round(bytes / MIB)} MiB`;
}

/**
 * The sizes table: each of `tables` (from `sizes.tables`: { total, heap, toast, indexes, index: { name: bytes } }) and
 * its parts, then the database, each also per million of `calls`.
 */
export function sizesTable(sizes, tables, calls) {
  const row = (label, bytes) => [label, bytesText(bytes), bytesText(perMillion(bytes, calls))];
  const rows = tables.flatMap((name) => {
    const s = sizes.tables[name];
    return [
      row(`${name} (total)`, s.total),
      row('  heap', s.heap),
      row('  TOAST', s.toast),
      row('  indexes', s.indexes),
      ...Object.entries(s.index).map(([index, bytes]) => row(`    ${index}`, bytes)),
    ];
  });
  return table(['relation', 'size', 'per million calls'], [...rows, row('database', sizes.database)]);
}

/**
 * One chunk of CallsService.exportChunk's walk (jsonl with transcripts): of `page` (the calls after the cursor, one
 * more than `maxRows` asked for) and their `turns` ([{ call_id, role, text }] in order), the calls kept: up to
 * `maxRows`, and as long as their lines (the call and its turns as JSON, and a newline) stay within `maxBytes`, the
 * first always. `more`: whether a next chunk starts after `last`.
 */
export function exportChunk(page, turns, { maxRows, maxBytes }) {
  const chunk = page.slice(0, maxRows);
  const byCall = new Map();
  for (const turn of turns) {
    const list = byCall.get(turn.call_id) ?? [];
    list.push({ role: turn.role, text: turn.text });
    byCall.set(turn.call_id, list);
  }
  const kept = { calls: 0, turns: 0, bytes: 0, last: undefined };
  for (const row of chunk) {
    const list = byCall.get(row.id) ?? [];
    const line = Buffer.byteLength(JSON.stringify({ ...row, transcript: list })) + 1;
    if (kept.last && kept.bytes + line > maxBytes) break;
    Object.assign(kept, {
      calls: kept.calls + 1,
      turns: kept.turns + list.length,
      bytes: kept.bytes + line,
      last: row,
    });
  }
  return { ...kept, more: kept.last !== undefined && (kept.last !== chunk.at(-1) || page.length > maxRows) };
}
