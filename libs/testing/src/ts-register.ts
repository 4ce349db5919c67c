import { join } from 'node:path';

/**
 * `node -r TS_REGISTER file.ts` runs this repository's TypeScript in a plain child process, for tests that must
 * signal or kill a real process (SIGKILL and SIGTERM cannot be simulated inside Jest's own process).
 */
export const TS_REGISTER = join(__dirname, '..', 'src', 'ts-register.cjs'); // also from dist/
