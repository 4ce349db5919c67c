import { createServer, type Server } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { DEFAULT_RETRY_AFTER_SECONDS, errorEnvelope } from '@switchboard/contracts';
import { observeDatabaseUp, serveMetrics } from '@switchboard/observability';
import { DatabaseHealth } from '@switchboard/persistence';
import { NATS_LINK, type NatsLink } from '@switchboard/messaging';
import { Readiness } from './readiness';

/**
 * `GET /healthz` (the process lives), `GET /readyz` (NATS connected, not reconnecting, and the database
 * answering; else 503 with `Retry-After` and each check) and
 * `GET /metrics` (Prometheus) on `HEALTH_PORT`, for orchestrators and scrapers. Services speak NATS only; this
 * is their one HTTP port.
 */
export class HealthServer {
  private server: Server | undefined;
  private stopDatabaseGauge: (() => void) | undefined;
  constructor(
    private readonly app: INestApplicationContext,
    private readonly readiness = new Readiness(),
  ) {}

  async listen(port: number, host = '0.0.0.0'): Promise<number> {
    // `database_up` for the DatabaseDown alert (deploy/prometheus/alerts.yml), pinged at each scrape of /metrics.
    const database = this.database();
    if (database) this.stopDatabaseGauge = observeDatabaseUp(() => database.ping());
    this.server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      const send = (status: number, body: unknown) => {
        const retry = status === 503 ? { 'retry-after': String(DEFAULT_RETRY_AFTER_SECONDS.service_unavailable) } : {};
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...retry });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'GET') return send(404, errorEnvelope('not_found', 'No such resource.'));
      if (path === '/healthz') return send(200, { status: 'ok' });
      if (path === '/metrics') return serveMetrics(req, res);
      if (path === '/readyz') {
        void this.checks().then((checks) => {
          const ready = !this.readiness.draining && Object.values(checks).every((v) => v === 'ok');
          send(
            ready ? 200 : 503,
            ready ? { status: 'ok', checks } : { ...errorEnvelope('service_unavailable', 'Not ready.'), checks },
          );
        });
        return;
      }
      send(404, errorEnvelope('not_found', 'No such resource.'));
    });
    // A port in use (or not allowed) rejects, for the runner to say so, instead of an unhandled 'error' event.
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  /** From now on /readyz answers 503, so traffic stops before the service does. */
  drain(): void {
    // Nor ping the database any more: it is about to close.
    this.stopDatabaseGauge?.();
    this.readiness.drain();
  }

  async close(): Promise<void> {
    this.stopDatabaseGauge?.();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The app's database, when it has one. */
  private database(): DatabaseHealth | undefined {
    try {
      return this.app.get(DatabaseHealth, { strict: false });
    } catch {
      return undefined;
    }
  }

  private async checks(): Promise<Record<string, string>> {
    const nats = this.app.get<NatsLink>(NATS_LINK, { strict: false }).state;
    const checks: Record<string, string> = { nats: nats === 'connected' ? 'ok' : nats };
    const database = this.database();
    if (database) checks.database = (await database.ping()) ? 'ok' : 'down';
    if (this.readiness.draining) checks.shutdown = 'in progress';
    return checks;
  }
}
