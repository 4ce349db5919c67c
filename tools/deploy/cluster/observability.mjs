// What the cluster run reads back from its observability: each simulated call's trace from the OTLP receiver, and
// the alerts Prometheus evaluates (deploy/prometheus), while a fault is on.
import { setTimeout as sleep } from 'node:timers/promises';
import { getJson, OTLP_URL, PROMETHEUS_URL } from './cluster.mjs';

/** The services a simulated call's trace must cross: the operator request, the call, its billing, its webhook. */
export const TRACE_SERVICES = ['gateway', 'calls-media', 'numbers-billing', 'webhook-dispatcher'];

/**
 * One call's trace, judged: every span of it, the services they came from, and whether it is one tree (a single
 * root, the gateway's span under the client's traceparent, and every other span's parent in the trace).
 */
export async function judgeTrace(traceId) {
  const { body } = await getJson(`${OTLP_URL}/v1/traces?trace_id=${traceId}`);
  const spans = body.spans ?? [];
  const ids = new Set(spans.map((s) => s.span_id));
  const roots = spans.filter((s) => !s.parent_span_id || !ids.has(s.parent_span_id));
  const services = new Set(spans.map((s) => s.service));
  const missing = TRACE_SERVICES.filter((service) => !services.has(service));
  return {
    spans: spans.length,
    services: [...services].sort(),
    missing,
    roots: roots.length,
    complete: missing.length === 0 && roots.length === 1,
  };
}

/**
 * Every call of `calls` ([{ sid, traceId, receiverTraceparents }]) judged; the webhook must carry the same trace.
 * Spans are exported in batches (up to 5 s late): a trace still short of a service is asked again for `settleMs`.
 */
export async function judgeTraces(calls, { settleMs = 30_000 } = {}) {
  const deadline = Date.now() + settleMs;
  const results = [];
  for (const call of calls) {
    let verdict = await judgeTrace(call.traceId);
    while (!verdict.complete && Date.now() < deadline) {
      await sleep(1000);
      verdict = await judgeTrace(call.traceId);
    }
    const webhookInTrace = [...call.receiverTraceparents].some((tp) => tp.split('-')[1] === call.traceId);
    results.push({ ...call, ...verdict, webhookInTrace, ok: verdict.complete && webhookInTrace });
  }
  return results;
}

/** The alerts Prometheus has firing now: [{ name, labels, activeAt }]. */
export async function firingAlerts() {
  const { body } = await getJson(`${PROMETHEUS_URL}/api/v1/alerts`);
  return (body?.data?.alerts ?? [])
    .filter((a) => a.state === 'firing')
    .map((a) => ({ name: a.labels.alertname, labels: a.labels, activeAt: a.activeAt }));
}

/** Prometheus' scrape targets: [{ job, instance, health }]. */
export async function scrapeTargets() {
  const { body } = await getJson(`${PROMETHEUS_URL}/api/v1/targets?state=active`);
  return (body?.data?.activeTargets ?? []).map((t) => ({
    job: t.labels.job,
    instance: t.labels.instance,
    health: t.health,
    error: t.lastError || undefined,
  }));
}

/** An instant query's vector: [{ metric, value }]. */
export async function query(expr) {
  const { body } = await getJson(`${PROMETHEUS_URL}/api/v1/query?query=${encodeURIComponent(expr)}`);
  if (body?.status !== 'success') throw new Error(`Prometheus query ${expr}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
}

/**
 * Watches Prometheus' alerts every few seconds while the run goes on, keeping the first time each alert (by name
 * and instance) was seen firing, and during which fault.
 */
export class AlertWatch {
  constructor() {
    this.seen = new Map();
    this.fault = 'none';
    this.running = false;
    this.errors = 0;
  }

  start(everyMs = 5000) {
    this.running = true;
    this.done = (async () => {
      while (this.running) {
        try {
          for (const alert of await firingAlerts()) {
            const key = `${alert.name}{${alert.labels.instance ?? alert.labels.job ?? ''}}`;
            if (!this.seen.has(key))
              this.seen.set(key, {
                alert: alert.name,
                labels: alert.labels,
                fault: this.fault,
                at: new Date().toISOString(),
              });
          }
        } catch {
          this.errors += 1;
        }
        await sleep(everyMs);
      }
    })();
  }

  /** Waits until an alert first seen firing during the current fault matches `test` (or `timeoutMs`). */
  async waitFor(test, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = [...this.seen.values()].find((a) => a.fault === this.fault && test(a));
      if (match) return match;
      await sleep(2000);
    }
    return undefined;
  }

  async stop() {
    this.running = false;
    await this.done;
  }
}
