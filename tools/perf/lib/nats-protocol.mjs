// Reading NATS's route protocol as it crosses a relay, and what a request costs the cluster (bench/nats-routes.mjs).
import { int, table } from './common.mjs';
import { medianBy } from './stats.mjs';

/** A route relay's count of a stream of route protocol: each operation's lines, and the bytes. */
export function routeCounter() {
  const counts = { bytes: 0, ops: {} };
  let partial = '';
  let skip = 0;
  return {
    counts,
    /** Feeds a chunk of one direction; a message's payload (its size is on its line) is skipped, not parsed. */
    feed(chunk) {
      counts.bytes += chunk.length;
      let text = partial + chunk.toString('latin1');
      partial = '';
      for (;;) {
        if (skip > 0) {
          const taken = Math.min(skip, text.length);
          text = text.slice(taken);
          skip -= taken;
          if (skip > 0) return;
        }
        const end = text.indexOf('\r\n');
        if (end < 0) {
          partial = text;
          return;
        }
        const line = text.slice(0, end);
        text = text.slice(end + 2);
        const [op, ...args] = line.split(' ');
        if (!op) continue;
        counts.ops[op] = (counts.ops[op] ?? 0) + 1;
        // RMSG <account> <subject> [reply] <size>, HMSG ... <header size> <total size>: the payload and its CRLF.
        if (op === 'RMSG' || op === 'HMSG') skip = Number(args.at(-1)) + 2;
      }
    },
  };
}

/**
 * What each of `requests` requests cost, from the relay's counts (`routeCounter`'s { bytes, ops }) and the
 * nats-servers' CPU seconds read before and after them, `seconds` apart.
 */
export function perRequest({ requests, seconds, before, after, cpuBefore, cpuAfter }) {
  const per = (value) => value / requests;
  return {
    requests_per_second: requests / seconds,
    route_bytes_per_request: per(after.bytes - before.bytes),
    route_ops_per_request: Object.fromEntries(
      Object.keys(after.ops).map((op) => [op, per((after.ops[op] ?? 0) - (before.ops[op] ?? 0))]),
    ),
    nats_cpu_us_per_request: per((cpuAfter - cpuBefore) * 1e6),
  };
}

/** Each client's median round (by nats-server CPU; `results`: { client: [perRequest, ...] }), as a table. */
export function natsRoutesReport(r) {
  const ops = (m, op) => (m.route_ops_per_request[op] ?? 0).toFixed(2);
  return [
    `NATS per request, two nodes and one route, ${int(r.requests)} requests ${r.concurrency} at a time, ` +
      `the median of ${r.rounds} rounds`,
    '',
    table(
      ['client', 'req/s', 'nats-server CPU us', 'route bytes', 'RS+', 'RS-', 'RMSG + HMSG'],
      Object.entries(r.results).map(([name, rounds]) => {
        const m = medianBy(rounds, (round) => round.nats_cpu_us_per_request);
        return [
          name,
          int(m.requests_per_second),
          m.nats_cpu_us_per_request.toFixed(1),
          m.route_bytes_per_request.toFixed(0),
          ops(m, 'RS+'),
          ops(m, 'RS-'),
          (Number(ops(m, 'RMSG')) + Number(ops(m, 'HMSG'))).toFixed(2),
        ];
      }),
    ),
  ].join('\n');
}
