import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { startMetrics } from '@switchboard/observability';
import { DatabaseHealth } from '@switchboard/persistence';
import { HealthServer } from './health-server';

describe("the health server's database_up (the DatabaseDown alert's signal)", () => {
  let up = true;
  let pings = 0;
  let app: INestApplicationContext;
  let health: HealthServer;
  let base: string;

  beforeAll(async () => {
    startMetrics('health-server-spec');
    // The app's database as the health server finds it; its ping is what `SELECT 1` answers.
    const database = {
      ping: async () => {
        pings += 1;
        return up;
      },
    };
    @Module({ providers: [{ provide: DatabaseHealth, useValue: database }] })
    class DatabaseModule {}
    app = await NestFactory.createApplicationContext(DatabaseModule, { logger: false });
    health = new HealthServer(app);
    base = `http://127.0.0.1:${await health.listen(0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await health?.close();
    await app?.close();
  });

  const scrape = async () => (await fetch(`${base}/metrics`)).text();

  it('is 1 while the database answers and 0 when it does not, read at each scrape', async () => {
    expect(await scrape()).toMatch(/^database_up\{[^}]*\} 1$/m);
    up = false;
    expect(await scrape()).toMatch(/^database_up\{[^}]*\} 0$/m);
  });

  it('stops pinging the database once the service drains (it is about to close)', async () => {
    health.drain();
    const before = pings;
    await scrape();
    expect(pings).toBe(before);
  });
});
