import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import testingGlobalSetup from '../../../libs/testing/src/global-setup.ts';
import { buildConsoleIfStale } from '../../../tools/dev/console-build.mjs';
import { CHROMIUM } from './chromium';

/**
 * Jest globalSetup of the browser project: the console built (when missing or stale), Chromium present (else what
 * to install), then what every system-booting test needs (PostgreSQL answering, the tests' own nats-server).
 */
export default async function globalSetup(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests drive Chromium at ${CHROMIUM}, which is not installed: apt-get install chromium (.ci/run does), or set CHROMIUM_PATH.`,
    );
  }
  const root = resolve(__dirname, '..', '..', '..');
  if (!buildConsoleIfStale({ root, say: (message: string) => console.log(`[browser tests] ${message}`) })) {
    throw new Error('The console (apps/console) did not build; see the output above.');
  }
  await testingGlobalSetup();
}
