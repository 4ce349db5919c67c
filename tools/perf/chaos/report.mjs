// The fault tests' report: the tables `npm run chaos` prints, from its results (chaos/run.mjs).
import { int, table } from '../lib/common.mjs';

/** `503 service_unavailable: 12, 0 client_timeout: 1` of { what: count }. */
const codes = (counts) =>
  Object.entries(counts ?? {})
    .map(([what, n]) => `${what}: ${n}`)
    .join(', ');

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
                    ? ` (${codes(t.refused_by_code)}; answered after p50 ${(t.refused_answered_after.p50_ms / 1000).toFixed(1)} s, max ${(t.refused_answered_after.max_ms / 1000).toFixed(1)} s)`
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
          codes(k.attempts),
          codes(k.delivered_at_attempt) || '-',
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
          codes(p.answers_by_code),
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
  const live = r.tests.find((t) => t.test === 'live');
  if (live && !live.error) lines.push(...liveReport(live), '');
  else if (live?.error) lines.push(`live: ERROR ${live.error.split('\n')[0]}`, '');
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

/** The live-calls test: its calls, what became of them, what its live stream saw, and when each fault came. */
function liveReport(t) {
  const lines = [
    `Live calls (${t.calls_planned} started over ${t.spread_s} s, seed ${t.seed}): ${t.in_progress ? `${t.in_progress} calls STILL IN PROGRESS` : 'no call in progress'} ${t.settle_s} s after the calls and faults, every ended call billed ${t.billing_s} s later`,
    '',
    table(
      [
        'sent',
        'accepted',
        'refused',
        'recorded despite an error answer',
        'completed',
        'billed',
        'lost: not completed / not billed',
        'duplicated: listed / billed / adjusted',
        'wrong duration',
        'stream saw ended',
        'stream reconnects (with Last-Event-ID)',
        'end after plan p50 / max s',
      ],
      [
        [
          t.sent,
          t.accepted,
          `${t.refused}${t.refused ? ` (${codes(t.refused_by_code)})` : ''}`,
          t.recorded_despite_error,
          t.completed,
          t.billed,
          `${t.lost_by_check.not_completed} / ${t.lost_by_check.not_billed}`,
          `${t.duplicated_by_check.calls_list} / ${t.duplicated_by_check.billing} / ${t.duplicated_by_check.adjustment}`,
          t.wrong_duration,
          `${t.stream.saw_ended} of ${t.accepted}${t.stream.ended_twice ? ` (${t.stream.ended_twice} twice)` : ''}`,
          `${t.stream.reconnects} (${t.stream.resumed_with_last_event_id})`,
          `${((t.end_delay?.p50_ms ?? NaN) / 1000).toFixed(1)} / ${((t.end_delay?.max_ms ?? NaN) / 1000).toFixed(1)}`,
        ],
      ],
    ),
  ];
  for (const f of t.faults ?? [])
    lines.push(
      `  live: t=${f.at_s} s ${f.fault}${f.error ? ` FAILED: ${f.error}` : ''}${f.calls_in_play != null ? `, ${f.calls_in_play} calls in play` : ''}${f.healthy_after_restart_s ? ` (healthy ${f.healthy_after_restart_s} s after start)` : ''}`,
    );
  lines.push(
    `  live stream: ${t.stream.connections} connections, ${t.stream.breaks} breaks (${codes(t.stream.break_reasons)}), events ${codes(t.stream.by_type)}; ${t.stream.skipped_events} of the ${t.stream.logged_events} logged never streamed${t.stream.skipped_events ? ` (${codes(t.stream.skipped_by_type)}; ${t.stream.skipped_but_published} of them published on NATS)` : ''}, ${t.stream.published_out_of_order} of ${t.stream.published} published after a higher id, ${t.stream.repeated_ids} ids repeated, ${t.stream.ids_out_of_order} out of order; ${t.left_in_play} calls left in simulated_live_calls`,
  );
  if (t.stream.skipped_events > 0)
    lines.push(
      `  NOTE: the live stream never carried ${t.stream.skipped_events} logged events (not judged: the end report is the record); first: ${t.evidence.stream_skipped
        .slice(0, 3)
        .map(
          (e) =>
            `${e.type} ${e.id} of ${e.call_id}${e.on_nats?.overtaken_by ? ` (published after ${e.on_nats.overtaken_by})` : ''}`,
        )
        .join(', ')}`,
    );
  return lines;
}
