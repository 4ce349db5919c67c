import { Metrics, observeDatabaseUp, startMetrics } from './metrics';

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

describe('observeDatabaseUp', () => {
  beforeAll(() => startMetrics('metrics-spec'));

  it('reports database_up 1 while the ping answers, 0 when it fails or is late, and stops pinging when told', async () => {
    let answer: () => Promise<boolean> = async () => true;
    let pings = 0;
    const stop = observeDatabaseUp(() => {
      pings += 1;
      return answer();
    }, 50);
    expect(await scrape()).toMatch(/^database_up\{[^}]*\} 1$/m);

    answer = async () => {
      throw new Error('connection refused');
    };
    expect(await scrape()).toMatch(/^database_up\{[^}]*\} 0$/m);

    answer = () => new Promise((resolve) => setTimeout(() => resolve(true), 2000).unref());
    const started = Date.now();
    expect(await scrape()).toMatch(/^database_up\{[^}]*\} 0$/m);
    expect(Date.now() - started).toBeLessThan(1000);

    stop();
    const before = pings;
    await scrape();
    expect(pings).toBe(before);
  });
});
