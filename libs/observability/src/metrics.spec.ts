import { Metrics, startMetrics } from './metrics';

/** The exporter's Prometheus page, as a scrape reads it. */
async function scrape(): Promise<string> {
  const { PrometheusSerializer } = await import('@opentelemetry/exporter-prometheus');
  const { resourceMetrics } = await startMetrics('metrics-spec').collect();
  return new PrometheusSerializer('').serialize(resourceMetrics);
}

describe('Metrics', () => {
  it('keeps an instrument made before the provider a no-op only until the provider is started', async () => {
    const before = Metrics.httpRequestDuration();
    before.record(0.5, { route: '/v1/before' });
    expect(Metrics.httpRequestDuration()).toBe(before);

    startMetrics('metrics-spec');
    const after = Metrics.httpRequestDuration();
    expect(after).not.toBe(before);
    after.record(0.002, { route: '/v1/after' });
    expect(Metrics.httpRequestDuration()).toBe(after);

    const page = await scrape();
    expect(page).toMatch(/^http_server_request_duration_seconds_count\{route="\/v1\/after",[^}]*\} 1$/m);
    expect(page).not.toContain('/v1/before');
  });
});
