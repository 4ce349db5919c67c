// A service run by runService in a process of its own, for service-runner.int-spec.ts: its logs go to stderr as
// JSON lines, its shutdown hook prints "closed" on stdout. PROBE_KIND=self-serving runs a process that serves its
// own health (as the gateway does) and prints "drained" when runService drains it.
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

const logger = pino({ level: 'info' }, pino.destination(2));

if (process.env.PROBE_KIND === 'self-serving') {
  // Like the gateway: it answers its own /readyz, so runService only drains and closes it.
  // The interval stands for the gateway's open servers, which keep its process alive until closed.
  const serving = setInterval(() => undefined, 60_000);
  void runService('probe', logger, async () => ({
    drain: () => void process.stdout.write('drained\n'),
    close: async () => {
      clearInterval(serving);
      process.stdout.write('closed\n');
    },
  }));
} else {
  void runService('probe', logger, async () => {
    const app = await NestFactory.createApplicationContext(ProbeModule, { logger: false });
    await app.init();
    return app;
  });
}
