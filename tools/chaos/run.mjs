#!/usr/bin/env node
// `npm run chaos`: fault tests against the whole system as real processes, each ending with a count of what was lost
// (must be 0) and what was duplicated. Not part of `npm test`: it takes minutes and kills processes.
//
//   kill        kill -9 webhook-dispatcher, calls-media and numbers-billing in the middle of load, restart them
//   nats        restart NATS during load (a nats-server of this run's own, on its own port and store dir)
//   receivers   webhook receivers that hang, answer slowly, reset connections (and one that hangs for good)
//   provisions  1,000 concurrent provisions against a balance that covers 10 (and one that covers 2)
//
// node tools/chaos/run.mjs [--only kill,nats,receivers,provisions] [--rate 20] [--duration 30] [--no-build]
// Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), nats-server on the PATH
// and openssl. Everything runs on 127.0.0.1; every process, database and stream it makes is removed at the end.
import { int, machine, parseOptions, say, table, writeResults } from '../bench/lib/common.mjs';
import { startSystem } from '../bench/lib/system.mjs';
import { eventsSetup } from '../bench/events.mjs';
import { badReceivers, concurrentProvisions, killServices, restartNats } from './scenarios.mjs';

const ALL = ['kill', 'nats', 'receivers', 'provisions'];
const options = parseOptions(process.argv.slice(2), {
  only: { type: 'list', default: ALL },
  rate: { type: 'number', default: 20 },
  duration: { type: 'number', default: 30 },
  'drain-timeout': { type: 'number', default: 120 },
  concurrent: { type: 'number', default: 1000 },
  'no-build': { type: 'boolean', default: false },
  'keep-logs': { type: 'boolean', default: false },
});
for (const name of options.only)
  if (!ALL.includes(name)) throw new Error(`unknown test ${name} (known: ${ALL.join(', ')})`);

const env = {
  // Fault tests need retries in seconds, not minutes: the backoff and the time-out are configuration.
  WEBHOOK_BACKOFF_BASE_MS: '200',
  WEBHOOK_BACKOFF_MAX_MS: '2000',
  WEBHOOK_TIMEOUT_MS: '2000',
  RATE_LIMIT_REQUESTS: '1000000000',
  RATE_LIMIT_WINDOW_SECONDS: '3600',
};
const setup = eventsSetup();
const started = Date.now();
const results = { tool: 'chaos', started_at: new Date().toISOString(), machine: machine(), options, env, tests: [] };
let system;
let failed = false;
try {
  system = await startSystem({
    name: 'chaos',
    env: { ...env, ...setup.env },
    serviceEnv: setup.serviceEnv,
    ownNats: true,
    build: !options['no-build'],
  });
  const common = {
    tls: setup.tls,
    rate: options.rate,
    duration: options.duration,
    drainTimeout: options['drain-timeout'],
  };
  for (const name of options.only) {
    let result;
    try {
      if (name === 'kill') result = await killServices(system, common);
      if (name === 'nats') result = await restartNats(system, common);
      if (name === 'receivers') result = await badReceivers(system, common);
      if (name === 'provisions') {
        result = {
          name: 'concurrent provisions',
          runs: [
            await concurrentProvisions(system, { concurrent: options.concurrent, covers: 10 }),
            await concurrentProvisions(system, { concurrent: options.concurrent, covers: 2, area: '646' }),
          ],
        };
        result.lost = result.runs.reduce((s, r) => s + r.lost, 0);
        result.duplicated = result.runs.reduce((s, r) => s + r.duplicated, 0);
        result.rule_broken = result.runs.some((r) => r.rule_broken);
      }
    } catch (error) {
      console.error(error);
      system.printLogs();
      result = { name, error: String(error?.stack ?? error), lost: NaN, duplicated: NaN };
    }
    results.tests.push({ test: name, ...result });
    say(`chaos: ${name}: lost ${result.lost}, duplicated ${result.duplicated}`);
  }
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await system?.stop({ keepLogs: options['keep-logs'] });
  if (options['keep-logs'] && system) console.log(`logs kept in ${system.dir}`);
  setup.cleanup();
}

results.finished_at = new Date().toISOString();
results.seconds = Math.round((Date.now() - started) / 1000);
console.log(`\n${report(results)}`);
console.log(`\nresults: ${writeResults('chaos', 'chaos', results)}`);
const lost = results.tests.some((t) => !(t.lost === 0) || t.rule_broken);
process.exit(failed || lost ? 1 : 0);

export function report(r) {
  const lines = [`Fault tests (${r.seconds} s)`, ''];
  const flows = r.tests.filter((t) => t.test === 'kill' || t.test === 'nats');
  if (flows.length > 0) {
    lines.push(
      table(
        [
          'test',
          'calls sent',
          'accepted',
          'refused (client saw an error)',
          'delivered',
          'lost: delivery / calls list / billing',
          'duplicated: delivery / list / billing',
          'recorded despite an error answer',
          'delivery p50 / p99 ms',
          'drain s',
        ],
        flows.map((t) =>
          t.error
            ? [t.name, 'ERROR', t.error.split('\n')[0], '', '', '', '', '', '', '']
            : [
                t.name,
                int(t.sent),
                int(t.accepted),
                `${t.refused}${
                  t.refused
                    ? ` (${Object.entries(t.refused_by_code)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join(
                          ', ',
                        )}; answered after p50 ${(t.refused_answered_after.p50_ms / 1000).toFixed(1)} s, max ${(t.refused_answered_after.max_ms / 1000).toFixed(1)} s)`
                    : ''
                }`,
                int(t.delivered),
                `${t.lost_by_check.delivery} / ${t.lost_by_check.calls_list} / ${t.lost_by_check.billing}`,
                `${t.duplicated_by_check.delivery} / ${t.duplicated_by_check.calls_list} / ${t.duplicated_by_check.billing}`,
                `${t.recorded_despite_error} (${t.delivered_despite_error} delivered)`,
                `${Math.round(t.delivery_latency.p50_ms)} / ${Math.round(t.delivery_latency.p99_ms)}`,
                t.drain_s?.toFixed(1),
              ],
        ),
      ),
    );
    for (const t of flows)
      for (const f of t.faults ?? [])
        lines.push(
          `  ${t.test}: t=${f.at_s} s ${f.fault}${f.error ? ` FAILED: ${f.error}` : ''}${f.healthy_after_restart_s ? ` (healthy ${f.healthy_after_restart_s} s after start)` : ''}${f.ready_after_restart_s !== undefined ? ` (system ready ${f.ready_after_restart_s} s after NATS was back)` : ''}`,
        );
    lines.push('');
  }
  const receivers = r.tests.find((t) => t.test === 'receivers');
  if (receivers?.kinds) {
    lines.push(
      `Receivers (dispatcher time-out ${receivers.dispatcher_timeout_ms} ms, backoff base 200 ms), settled in ${receivers.settle_s} s`,
    );
    lines.push('');
    lines.push(
      table(
        [
          'receiver',
          'events',
          'delivered',
          'lost',
          'duplicated',
          'attempts per event',
          'delivered at attempt',
          'requests seen',
          'delivery p50 / p99 ms',
          'expected',
        ],
        receivers.kinds.map((k) => [
          k.receiver,
          k.events,
          k.delivered,
          k.lost,
          k.duplicated,
          Object.entries(k.attempts)
            .map(([n, c]) => `${n}: ${c}`)
            .join(', '),
          Object.entries(k.delivered_at_attempt)
            .map(([n, c]) => `${n}: ${c}`)
            .join(', ') || '-',
          k.requests_seen_by_receiver,
          k.delivered ? `${Math.round(k.latency.p50_ms)} / ${Math.round(k.latency.p99_ms)}` : '-',
          k.expected,
        ]),
      ),
    );
    lines.push(
      `  calls list: lost ${receivers.checks.lost.calls_list}, duplicated ${receivers.checks.duplicated.calls_list}; billing: lost ${receivers.checks.lost.billing}, duplicated ${receivers.checks.duplicated.billing}; invalid signatures: ${receivers.checks.invalid_signatures}`,
    );
    lines.push('');
  } else if (receivers?.error) lines.push(`receivers: ERROR ${receivers.error.split('\n')[0]}`, '');
  const provisions = r.tests.find((t) => t.test === 'provisions');
  if (provisions?.runs) {
    lines.push(
      table(
        [
          'provisions',
          'binding rule',
          'allowed',
          '201',
          'answers',
          'listed',
          'charged',
          'balance before -> after ($)',
          'lost',
          'duplicated',
          'rule broken',
          's',
          'answer p50 / p99 ms',
        ],
        provisions.runs.map((p) => [
          p.name,
          p.binding_rule,
          p.expected_successes,
          p.answered_201,
          Object.entries(p.answers_by_code)
            .map(([k, v]) => `${k}: ${v}`)
            .join(', '),
          p.listed,
          p.charged,
          `${(p.balance_before_cents / 100).toFixed(2)} -> ${(p.balance_after_cents / 100).toFixed(2)}`,
          p.lost,
          p.duplicated,
          p.rule_broken ? 'YES' : 'no',
          p.seconds,
          `${Math.round(p.answer_ms.p50_ms)} / ${Math.round(p.answer_ms.p99_ms)}`,
        ]),
      ),
    );
    lines.push('');
  } else if (provisions?.error) lines.push(`provisions: ERROR ${provisions.error.split('\n')[0]}`, '');
  lines.push(
    table(
      ['test', 'lost (must be 0)', 'duplicated'],
      r.tests.map((t) => [
        t.name ?? t.test,
        Number.isNaN(t.lost) ? 'ERROR' : t.lost,
        Number.isNaN(t.duplicated) ? 'ERROR' : t.duplicated,
      ]),
    ),
  );
  return lines.join('\n');
}
