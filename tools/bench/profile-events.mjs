// Where the events pipeline spends its CPU: starts the system with --cpu-prof, provisions numbers with HTTPS
// receivers, warms the path with one call to each number, then reports a burst of calls and waits for every
// delivery. Stops the services (which writes their profiles) and prints, for each service, the hottest packages and
// functions of the burst alone (samples outside it, start-up and provisioning included, are left out).
//
// Run: node tools/bench/profile-events.mjs [--numbers 300] [--calls 1500] [--apps calls-media,webhook-dispatcher] [--no-build]
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, callerNumber, provisionFleet } from './lib/clients.mjs';
import { int, parseOptions, say, sleep } from './lib/common.mjs';
import { monotonicMicros, summarizeProfile, within } from './lib/profile.mjs';
import { startReceiver } from './lib/receiver.mjs';
import { compiledMains, startSystem } from './lib/system.mjs';
import { eventsSetup } from './events.mjs';

const options = parseOptions(process.argv.slice(2), {
  numbers: { type: 'number', default: 300 },
  calls: { type: 'number', default: 1500 },
  'inject-concurrency': { type: 'number', default: 64 },
  apps: { type: 'string', default: 'calls-media,webhook-dispatcher,numbers-billing' },
  top: { type: 'number', default: 30 },
  'no-build': { type: 'boolean', default: false },
});

const setup = eventsSetup();
const profileDir = mkdtempSync(join(tmpdir(), 'sb-profile-events-'));
const system = await startSystem({
  name: 'profileevents',
  env: setup.env,
  serviceEnv: setup.serviceEnv,
  profileDir,
  // The compiled modules, so that time and allocations are told by package (a bundle is one file).
  mains: compiledMains(),
  build: !options['no-build'],
});
let window;
try {
  const perAccount = 3;
  const accounts = Math.ceil(options.numbers / perAccount);
  const receiver = await startReceiver({
    tls: setup.tls,
    servers: Array.from({ length: accounts }, () => ({ mode: 'ok' })),
  });
  try {
    const fleet = await provisionFleet(system, {
      numbers: options.numbers,
      perAccount,
      name: 'Events profile',
      webhookUrl: (a) => `https://127.0.0.1:${receiver.ports[a]}/switchboard/${a}`,
    });
    const numbers = fleet.flatMap((f) => f.numbers);
    receiver.addSecrets(Object.fromEntries(numbers.map((n) => [n.id, n.webhook_secret])));
    const admin = new Admin(system);
    say(`profile: warm-up, one call to each of ${int(numbers.length)} numbers`);
    await deliver(admin, receiver, numbers);
    const order = Array.from({ length: options.calls }, (_, i) => numbers[i % numbers.length]);
    say(`profile: burst of ${int(order.length)} calls`);
    const from = monotonicMicros();
    const started = Date.now();
    const delivered = await deliver(admin, receiver, order);
    window = { from, to: monotonicMicros() };
    const seconds = (Date.now() - started) / 1000;
    say(
      `profile: ${int(delivered)} of ${int(order.length)} delivered in ${seconds.toFixed(1)} s (${int(delivered / seconds)}/s, under the profiler)`,
    );
  } finally {
    await receiver.stop();
  }
} finally {
  await system.stop();
  setup.cleanup();
}

for (const app of options.apps.split(',')) {
  const dir = join(profileDir, app);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    console.log(`\n## ${app} (the burst only)\n`);
    console.log(summarizeProfile(within(JSON.parse(readFileSync(join(dir, file), 'utf8')), window), options.top));
  }
}
say(`profiles kept in ${profileDir} (whole runs; open them in Chrome DevTools or speedscope)`);

/** Reports one call to each of `targets` (`inject-concurrency` at once) and waits until each was delivered. */
async function deliver(admin, receiver, targets) {
  const accepted = new Set();
  const seen = new Set();
  const unsubscribe = receiver.onArrival((arrival) => {
    if (arrival.handled) seen.add(arrival.call_sid);
  });
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(options['inject-concurrency'], targets.length) }, async () => {
      while (next < targets.length) {
        const number = targets[next++];
        const { call_sid } = await admin
          .injectCall({ to: number.phone_number, caller: callerNumber(), duration_sec: 42, outcome: 'order_placed' })
          .catch(() => ({}));
        if (call_sid) accepted.add(call_sid);
      }
    }),
  );
  const deadline = Date.now() + 180_000;
  const count = () => [...accepted].filter((sid) => seen.has(sid)).length;
  while (count() < accepted.size && Date.now() < deadline) await sleep(50);
  unsubscribe();
  return count();
}
