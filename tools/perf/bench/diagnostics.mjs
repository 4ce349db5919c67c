// Diagnostics (`npm run bench -- --only api,diagnostics`): where the API's time goes, one setting changed at a time,
// on the API benchmark's data. Asked for by name: it takes two more minutes and resolves only large differences on a
// small machine.
import { createServer } from 'node:http';
import { Admin } from '../lib/clients.mjs';
import { int, sleep, say } from '../lib/common.mjs';
import { measured } from '../lib/cpu.mjs';
import { httpLoad } from '../lib/load.mjs';
import { freePort, SERVICES } from '../lib/system.mjs';
import { diagnosticsVariants } from './report.mjs';

export const DIAGNOSTICS_OPTIONS = {
  'diagnostics-duration': { type: 'number', default: 5, min: 1, help: 'seconds per diagnostics measurement' },
};

/**
 * Where the API's time goes, one change at a time, on the same data (the API benchmark's account). This machine's
 * speed drifts by +-25% over minutes, so variants are not measured one after the other but interleaved: every
 * variant once per round, the order rotated, `rounds` rounds, and the medians compared.
 * - an extra gateway process on ports of its own, beside the benchmark's, differing only in its environment:
 *   OpenTelemetry off altogether (OTEL_SDK_DISABLED=true: no spans, no instrumentation), and exporting spans over
 *   OTLP to a local sink (every trace, and 10% of them): what tracing costs when a deployment sends it somewhere. The
 *   gateway is the process with the most CPU per request. (It serves its requests without the HTTP instrumentation,
 *   ADR 0117, so there is no variant without it.)
 * - the same load spread over one API key per connection instead of one key (one rate-limit row per key).
 */
export async function diagnostics(system, opts, api, rounds = 4) {
  const auth = { authorization: `Bearer ${api.key}` };
  // Where a gateway that exports spans sends them: a sink that reads each OTLP post and answers 200.
  const sink = createServer((request, response) => request.resume().on('end', () => response.end()));
  await new Promise((listening) => sink.listen(0, '127.0.0.1', listening));
  const otlp = `http://127.0.0.1:${sink.address().port}`;
  const variants = [
    {
      id: 'as-configured',
      name: 'gateway as configured (no OTLP endpoint)',
      key: 'gateway',
      port: system.ports.gateway,
    },
    {
      id: 'otel-off',
      name: 'gateway with OpenTelemetry off (OTEL_SDK_DISABLED=true)',
      key: 'gateway#otel-off',
      env: { OTEL_SDK_DISABLED: 'true' },
    },
    {
      id: 'exporting',
      name: 'gateway exporting every span over OTLP',
      key: 'gateway#exporting',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp },
    },
    {
      id: 'exporting-10',
      name: 'gateway exporting 10% of traces over OTLP',
      key: 'gateway#exporting-10',
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      },
    },
  ];
  for (const v of variants.filter((x) => x.env)) {
    v.port = await freePort();
    system.start('gateway', { ...v.env, PORT: String(v.port), ADMIN_PORT: String(await freePort()) }, v.key);
  }
  for (const v of variants.filter((x) => x.env)) {
    for (let i = 0; i < 150; i += 1) {
      if (!system.alive(v.key)) throw new Error(`${v.key} exited at start`);
      const ready = await fetch(`http://127.0.0.1:${v.port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) break;
      await sleep(200);
    }
    await sleep(3000);
    v.fresh_rss_mib = Math.round(system.rssMiB(v.key));
  }
  // One key per connection, from accounts of their own.
  const admin = new Admin(system);
  const keys = [];
  while (keys.length < opts.connections) {
    const account = await admin.createAccount({ name: 'Diagnostics keys' });
    for (let i = 0; i < 5 && keys.length < opts.connections; i += 1) keys.push((await admin.createKey(account.id)).key);
  }
  let nextKey = 0;
  const spread = {
    id: 'many-keys',
    name: `gateway as configured, ${opts.connections} API keys (one per connection)`,
    key: 'gateway',
    port: system.ports.gateway,
    keys: () => keys[nextKey++ % keys.length],
  };
  const all = [...variants, spread];
  const labels = () => ({
    ...Object.fromEntries(SERVICES.map((app) => [system.pid(app), app])),
    ...Object.fromEntries(variants.filter((v) => v.env).map((v) => [system.pid(v.key), v.key])),
    [process.pid]: 'load generator',
  });
  for (const v of all) v.samples = [];
  // The extra gateways are fresh processes: warm them (JIT, pools) as long as the others were warmed before.
  for (const v of variants.filter((x) => x.env))
    await httpLoad({
      url: `http://127.0.0.1:${v.port}/v1/numbers`,
      headers: auth,
      connections: opts.connections,
      durationS: 5,
    });
  say(`diagnostics: ${all.length} variants x ${rounds} rounds of ${opts['diagnostics-duration']} s, interleaved`);
  for (let round = 0; round < rounds; round += 1) {
    const order = all.map((_, i) => all[(i + round) % all.length]);
    for (const v of order) {
      const url = `http://127.0.0.1:${v.port}/v1/numbers`;
      const load = {
        url,
        headers: auth,
        connections: opts.connections,
        durationS: opts['diagnostics-duration'],
        keys: v.keys,
      };
      await httpLoad({ ...load, durationS: 1 });
      const m = await measured({ run: () => httpLoad(load), labels, system, attempts: 1 });
      v.samples.push({
        rps: m.rps,
        p99_ms: m.p99_ms,
        gateway_cpu_ms: m.cpu_ms_per_request[v.key],
        cpu_ms_per_request: m.cpu_ms_per_request,
        foreign_cpu_percent: m.foreign_cpu_percent,
      });
    }
    say(`diagnostics: round ${round + 1}: ${all.map((v) => `${v.id} ${int(v.samples.at(-1).rps)}`).join(', ')} req/s`);
  }
  for (const v of variants.filter((x) => x.env)) await system.kill(v.key, 'SIGTERM');
  sink.close();
  return {
    rounds,
    duration_s: opts['diagnostics-duration'],
    path: 'GET /v1/numbers',
    fresh_rss_mib_as_configured: api.memory_idle.gateway?.mean_mib,
    variants: diagnosticsVariants(all),
  };
}
