#!/usr/bin/env node
// Screenshots of the console's main pages, desktop and phone width, into docs/console/*.png (linked from the README).
// They come from the browser tests themselves (test/browser), which walk every page against a booted system with
// real data: CONSOLE_SCREENSHOTS tells them where to save. Needs what `npm test` needs (PostgreSQL, nats-server,
// Chromium); about a minute.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const out = resolve(process.argv[2] ?? join(root, 'docs', 'console'));
const result = spawnSync(join(root, 'node_modules', '.bin', 'jest'), ['--maxWorkers=2', 'test/browser'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test', CONSOLE_SCREENSHOTS: out },
});
console.log(
  result.status === 0 ? `screenshots in ${out}` : 'the browser tests failed; screenshots may be missing or partial',
);
process.exit(result.status ?? 1);
