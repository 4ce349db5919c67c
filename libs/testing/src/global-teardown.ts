import { RUNNING_TEST_NATS } from './global-setup.ts';
import type { RunningTestNats } from './test-nats.ts';

/** Jest globalTeardown of the integration and e2e projects: stops the tests' nats-server and removes its store. */
export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as typeof globalThis & { [RUNNING_TEST_NATS]?: RunningTestNats };
  const running = holder[RUNNING_TEST_NATS];
  holder[RUNNING_TEST_NATS] = undefined;
  await running?.stop();
}
