// Run by the tests' global setup in a child process (`node -r ts-register.cjs`), because Jest's global setup cannot
// load the libraries' sources: writes the tests' nats-server configuration (every service's user with its grants
// for any prefix, plus the test-only superuser) to argv[2] and prints the generated passwords as JSON.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { ANY_PREFIX, natsServerConfig, serviceUsers, type NatsUser } from '@switchboard/messaging';
import { TEST_SUPERUSER } from './test-nats.ts';

const [file, listen, storeDir] = process.argv.slice(2);
const passwords: Record<string, string> = {};
const password = (user: string) => (passwords[user] = randomBytes(18).toString('hex'));
const users: NatsUser[] = [
  ...serviceUsers(ANY_PREFIX, password),
  { user: TEST_SUPERUSER, password: password(TEST_SUPERUSER) },
];
const header =
  "The tests' nats-server (libs/testing/src/test-nats.ts): the services' grants for every prefix, plus a superuser.";
writeFileSync(file, natsServerConfig({ listen, storeDir, users, header }), { mode: 0o600 });
process.stdout.write(JSON.stringify(passwords));
