// A service run by runService in a process of its own, for service-runner.int-spec.ts: its logs go to stderr as
// JSON lines, its shutdown hook prints "closed" on stdout.
import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { pino } from 'pino';
import { createHealthServedApp } from '../src/message-service';
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
  const app = await createHealthServedApp(ProbeModule, { logger: false });
  await app.init();
  return app;
});
