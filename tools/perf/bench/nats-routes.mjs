// What a request costs NATS in a cluster, by how its client takes replies (issue 53): Nest's stock `ClientNats`, which
// subscribes to a new inbox for every request and unsubscribes after the reply, against the gateway's
// `LinkedClientNats` (libs/messaging), which takes every reply on one subscription per connection.
//
// Two nats-servers joined by one route, the route through a relay that counts what crosses it: bytes, and the
// protocol operations (RS+ and RS- are the interest a SUB and an UNSUB announce to the other node; RMSG and HMSG are
// messages). The requester is on node A, a stock Nest microservice answers on node B, so every request and every reply
// crosses the route as it does between the deployment's three nodes. Each client sends the same requests, in turn, a
// few rounds (--rounds); the nats-servers' CPU is read from /proc for each measurement.
//
// Run: node tools/perf/bench/nats-routes.mjs [--requests 5000] [--concurrency 16] [--rounds 3] [--no-build]
// Needs nats-server on the PATH and the built libs (`tsc -b`, or the run builds them).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../dev/free-port.mjs';
import { int, require, root, say, sleep } from '../lib/common.mjs';
import { parseProcStat } from '../lib/cpu.mjs';
import { natsRoutesReport, perRequest, routeCounter } from '../lib/nats-protocol.mjs';
import { commandLine } from '../lib/options.mjs';

require('reflect-metadata');
const { Controller, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { ClientProxyFactory, MessagePattern, Payload, Transport } = require('@nestjs/microservices');
const { connect } = require('@nats-io/transport-node');
const { firstValueFrom } = require('rxjs');

/** A TCP relay to `targetPort` counting both directions. */
async function countingRelay(targetPort) {
  const counter = routeCounter();
  const sockets = [];
  const server = createServer((socket) => {
    const upstream = tcpConnect(targetPort, '127.0.0.1');
    sockets.push(socket, upstream);
    socket.on('data', (chunk) => counter.feed(chunk));
    upstream.on('data', (chunk) => counter.feed(chunk));
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: server.address().port,
    counter,
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      server.close();
    },
  };
}

/** One nats-server; `routeTo`: the port its one route dials (the relay in front of the other node's cluster port). */
async function natsServer(dir, name, { routeTo } = {}) {
  const [client, cluster, monitor] = [await freePort(), await freePort(), await freePort()];
  const config = join(dir, `${name}.conf`);
  writeFileSync(
    config,
    [
      `server_name: ${name}`,
      `listen: 127.0.0.1:${client}`,
      `http: 127.0.0.1:${monitor}`,
      `cluster { name: bench, listen: 127.0.0.1:${cluster}, no_advertise: true${routeTo ? `, routes: ["nats-route://127.0.0.1:${routeTo}"]` : ''} }`,
    ].join('\n'),
  );
  const child = spawn('nats-server', ['-c', config], { stdio: 'ignore' });
  for (let i = 0; i < 100; i += 1) {
    if (
      await fetch(`http://127.0.0.1:${monitor}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  return { name, child, client, cluster, monitor, url: `nats://127.0.0.1:${client}` };
}

/** CPU seconds a process has used (user and system), from /proc. */
function cpuSeconds(pid) {
  return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).ticks / 100; // USER_HZ = 100
}

/** `count` requests, `concurrency` at a time, each through `ask()`. */
async function requests(count, concurrency, ask) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        await ask();
      }
    }),
  );
}

async function natsRoutesBenchmark(options) {
  const { LinkedClientNats, NatsLink } = require('@switchboard/messaging');
  const dir = mkdtempSync(join(tmpdir(), 'sb-nats-routes-'));
  const cleanups = [];
  try {
    const a = await natsServer(dir, 'a');
    cleanups.push(() => a.child.kill());
    const relay = await countingRelay(a.cluster);
    cleanups.push(relay.close);
    const b = await natsServer(dir, 'b', { routeTo: relay.port });
    cleanups.push(() => b.child.kill());
    for (let i = 0; i < 100; i += 1) {
      const routes = await fetch(`http://127.0.0.1:${a.monitor}/routez`).then((r) => r.json());
      if (routes.num_routes > 0) break;
      await sleep(100);
    }

    // The responder: a stock Nest microservice on node B.
    const subject = 'bench.routes.echo';
    class Echo {
      echo(data) {
        return { status: 'ok', echoed: data };
      }
    }
    Payload()(Echo.prototype, 'echo', 0);
    MessagePattern(subject)(Echo.prototype, 'echo', Object.getOwnPropertyDescriptor(Echo.prototype, 'echo'));
    Controller()(Echo);
    class EchoModule {}
    Module({ controllers: [Echo] })(EchoModule);
    const responder = await NestFactory.createMicroservice(EchoModule, {
      transport: Transport.NATS,
      options: { servers: [b.url] },
      logger: false,
    });
    await responder.listen();
    cleanups.push(() => responder.close());
    await sleep(500); // its subscription's interest reaches node A

    // The two clients on node A, each on a connection of its own.
    const stock = ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [a.url] } });
    await stock.connect();
    cleanups.push(() => stock.close());
    const nc = await connect({ servers: a.url, noAsyncTraces: true });
    cleanups.push(() => nc.close());
    const linked = new LinkedClientNats(NatsLink.follow(nc));
    await linked.connect();
    const clients = {
      "Nest's ClientNats (an inbox per request)": () => firstValueFrom(stock.send(subject, { n: 1 })),
      'LinkedClientNats (one reply subscription)': () => firstValueFrom(linked.send(subject, { n: 1 })),
    };
    for (const ask of Object.values(clients)) await requests(200, options.concurrency, ask); // warm-up

    const results = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const [name, ask] of Object.entries(clients)) {
        await sleep(300); // the previous client's last UNSUBs have crossed
        const before = { ...relay.counter.counts, ops: { ...relay.counter.counts.ops } };
        const natsCpu = () => cpuSeconds(a.child.pid) + cpuSeconds(b.child.pid);
        const cpuBefore = natsCpu();
        const started = performance.now();
        await requests(options.requests, options.concurrency, ask);
        const seconds = (performance.now() - started) / 1000;
        await sleep(300);
        const measured = perRequest({
          requests: options.requests,
          seconds,
          before,
          after: relay.counter.counts,
          cpuBefore,
          cpuAfter: natsCpu(),
        });
        results[name].push(measured);
        say(
          `nats-routes: ${name}, round ${round}: ${int(measured.requests_per_second)} req/s, ` +
            `${measured.route_bytes_per_request.toFixed(0)} route bytes and ` +
            `${measured.nats_cpu_us_per_request.toFixed(1)} us of nats-server CPU per request`,
        );
      }
    }
    return { requests: options.requests, concurrency: options.concurrency, rounds: options.rounds, results };
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const options = commandLine('node tools/perf/bench/nats-routes.mjs', {
    requests: { type: 'number', default: 5000, min: 100, help: 'requests per client and round' },
    concurrency: { type: 'number', default: 16, min: 1, help: 'requests in flight' },
    rounds: { type: 'number', default: 3, min: 1, help: 'rounds, each client in turn' },
    'no-build': { type: 'boolean', default: false, help: 'use the libs as built' },
  });
  if (!options['no-build']) {
    const built = spawnSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'libs/messaging/tsconfig.build.json'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (built.status !== 0) process.exit(1);
  }
  console.log(`\n${natsRoutesReport(await natsRoutesBenchmark(options))}`);
  process.exit(0);
}
