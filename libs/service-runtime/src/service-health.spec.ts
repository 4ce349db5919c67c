import { Module, type INestApplication } from '@nestjs/common';
import { startMetrics } from '@switchboard/observability';
import { DatabaseHealth } from '@switchboard/persistence';
import { createHealthServedApp } from './message-service';
import { ServiceHealth } from './service-health';

describe("a service's health endpoints, served by its Nest application", () => {
  let up = true;
  let pings = 0;
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    startMetrics('service-health-spec');
    // The app's database as the health module finds it; its ping is what `SELECT 1` answers.
    const database = {
      ping: async () => {
        pings += 1;
        return up;
      },
    };
    @Module({ providers: [{ provide: DatabaseHealth, useValue: database }], exports: [DatabaseHealth] })
    class DatabaseModule {}
    app = await createHealthServedApp(DatabaseModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });
  afterAll(() => app?.close());

  const scrape = async () => (await fetch(`${base}/metrics`)).text();

  it('answers /healthz, and /readyz with the database check', async () => {
    up = true;
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('answers /readyz 503 with Retry-After and the check while the database is down', async () => {
    up = false;
    const answer = await fetch(`${base}/readyz`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(await answer.json()).toMatchObject({
      error: { code: 'service_unavailable' },
      checks: { database: 'down' },
    });
    up = true;
  });

  it.each([
    ['GET', '/nope'],
    ['POST', '/healthz'],
  ])('answers %s %s with the 404 envelope', async (method, path) => {
    const answer = await fetch(`${base}${path}`, { method });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: { code: 'not_found', message: 'No such resource.' } });
  });

  it('reports database_up as 1 while the database answers and 0 when it does not, read at each scrape', async () => {
    up = true;
    expect(await scrape()).toMatch(/^database_up\{[^}]*\} 1$/m);
    up = false;
    expect(await scrape()).toMatch(/^database_up\{[^}]*\} 0$/m);
    up = true;
  });

  it('once draining, answers /readyz 503 and stops pinging the database (it is about to close)', async () => {
    app.get(ServiceHealth).drain();
    const before = pings;
    await scrape();
    expect(pings).toBe(before);
    const answer = await fetch(`${base}/readyz`);
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { checks: Record<string, string> }).checks.shutdown).toBe('in progress');
  });
});
