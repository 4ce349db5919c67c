import type { OutboxPublisher } from '@switchboard/messaging';
import { startMetrics } from '@switchboard/observability';
import pino from 'pino';
import { OutboxRelay } from './outbox-relay';

/** The relay's outbox_relay_last_drained_timestamp_seconds on a scrape, or undefined when it has none. */
async function lastDrained(): Promise<number | undefined> {
  const { PrometheusSerializer } = await import('@opentelemetry/exporter-prometheus');
  const { resourceMetrics } = await startMetrics('outbox-relay-spec').collect();
  const line = new PrometheusSerializer('')
    .serialize(resourceMetrics)
    .split('\n')
    .find((l) => l.startsWith('outbox_relay_last_drained_timestamp_seconds{'));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe("the outbox relay's last-drained time (the OutboxStalled alert's signal)", () => {
  beforeAll(() => startMetrics('outbox-relay-spec'));

  it('is set when a pass empties the outbox, and left as it was while passes fail', async () => {
    let fail = false;
    let passes = 0;
    const publisher = {
      ensureStreams: async () => undefined,
      drain: async () => {
        passes += 1;
        if (fail) throw new Error('no responders: JetStream unreachable');
      },
    } as unknown as OutboxPublisher;
    const relay = new OutboxRelay(publisher, pino({ level: 'silent' }), { pollIntervalMs: 10 });
    const before = Date.now() / 1000;
    await relay.start();
    while (passes < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const drained = await lastDrained();
    expect(drained).toBeGreaterThanOrEqual(before);
    expect(drained).toBeLessThanOrEqual(Date.now() / 1000);

    fail = true;
    const failingFrom = passes;
    while (passes < failingFrom + 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await relay.stop();
    expect(await lastDrained()).toBeLessThanOrEqual(Date.now() / 1000 - 0.02);
  });
});

describe('the outbox relay while JetStream is not ready at start (a cluster electing its leaders)', () => {
  it('starts anyway, retries the streams on each pass, logs the outage once, and publishes once they exist', async () => {
    let streamAttempts = 0;
    let drains = 0;
    const publisher = {
      ensureStreams: async () => {
        streamAttempts += 1;
        if (streamAttempts <= 3) throw new Error('TIMEOUT: JetStream did not answer');
      },
      drain: async () => {
        drains += 1;
        return 0;
      },
    } as unknown as OutboxPublisher;
    const lines: { msg: string; outage?: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const relay = new OutboxRelay(publisher, logger, { pollIntervalMs: 5 });

    await relay.start();
    while (drains < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await relay.stop();

    // Three failed passes, then the streams once and never again.
    expect(streamAttempts).toBe(4);
    const outage = lines.filter((line) => line.outage === 'JetStream');
    expect(outage.map((line) => line.msg)).toEqual([
      expect.stringMatching(/^JetStream unavailable/),
      'JetStream available again',
    ]);
  });
});
