// A service run by runService in a process of its own, for service-runner.int-spec.ts: its logs go to stderr as
// JSON lines, its shutdown hook prints "closed" on stdout. With PROBE_ALLOCATE_MS it makes garbage for that long
// once started (a burst of work that grows V8's young generation), then stays idle.
import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { pino } from 'pino';
import { runService } from '../src/service-runner';

@Injectable()
class ShutdownProbe implements OnApplicationShutdown {
  onApplicationShutdown(): void {
    process.stdout.write('closed\n');
  }
}

@Module({ providers: [ShutdownProbe] })
class ProbeModule {}

void runService('probe', pino({ level: 'info' }, pino.destination(2)), async () => {
  const app = await NestFactory.createApplicationContext(ProbeModule, { logger: false });
  await app.init();
  const allocateMs = Number(process.env.PROBE_ALLOCATE_MS ?? 0);
  if (allocateMs > 0) setImmediate(() => makeGarbage(allocateMs));
  return app;
});

/** Short-lived objects, a few batches kept at once so some survive a scavenge, as a request's objects do. */
function makeGarbage(forMs: number): void {
  let kept: object[][] = [];
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    kept.push(Array.from({ length: 1000 }, (_, i) => ({ i, text: `item ${i}` })));
    if (kept.length > 50) kept = [];
  }
  process.stderr.write(`${JSON.stringify({ msg: 'probe allocated' })}\n`);
}
