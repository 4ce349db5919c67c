// Webhook receivers for benchmarks and fault tests, in a child process of their own (so their TLS and HMAC work
// does not share the measuring process's event loop): HTTPS servers on many ports, each with a behaviour.
//   ok      verify the signature (libs/signing), answer 204
//   slow    verify, answer 204 after `delayMs`
//   hang    never answer (the socket stays open until the sender gives up); `times` limits it to the first N
//           requests of each event, after which the receiver behaves as `ok`
//   reset   destroy the connection as soon as the request arrives; `times` as for hang
// Every request is reported to the parent over IPC (batched): when it arrived, which event and call, whether its
// signature was valid, what the receiver did, and the connection it came on (`kept`: one that carried a request
// before; `resumed`: a new TLS connection that resumed a session; `full`: a new one with a full handshake). A request
// is "handled" when the receiver did its work on a validly signed event (as the receiver of docs/webhooks.md does
// before it answers), whether or not its 2xx answer still reached the sender (`answered`): that is a delivery in the
// receiver's eyes, and a second one for the same call is a duplicate. A hung or reset request is never handled.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { fileURLToPath } from 'node:url';
import { provisionFleet } from './clients.mjs';
import { require, wallNow as now } from './common.mjs';

/**
 * Starts the receiver process with one HTTPS server per entry of `servers`: [{ mode, delayMs?, times? }], each on a
 * free port the system picks. `secrets`: { number_id: webhook_secret }.
 * Returns { ports (in the order of `servers`), arrivals, onArrival(fn), addSecrets(secrets), stop() }.
 */
export async function startReceiver({ tls, servers, secrets = {} }) {
  const child = fork(fileURLToPath(import.meta.url), ['--child'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const arrivals = [];
  const listeners = new Set();
  let ready;
  const started = new Promise((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) => reject(new Error(`receiver exited (${code}) before listening`)));
  });
  child.on('message', (message) => {
    if (message.type === 'ready') ready(message.ports);
    else if (message.type === 'arrivals') {
      for (const arrival of message.arrivals) {
        arrivals.push(arrival);
        for (const listener of listeners) listener(arrival);
      }
    } else if (message.type === 'error') console.error(`receiver: ${message.message}`);
  });
  child.send({ type: 'start', keyFile: tls.keyFile, certFile: tls.certFile, servers, secrets });
  const ports = await started;
  return {
    ports,
    arrivals,
    pid: child.pid,
    onArrival(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    addSecrets(more) {
      child.send({ type: 'secrets', secrets: more });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const ended = new Promise((done) => child.once('exit', done));
      child.send({ type: 'stop' });
      await Promise.race([ended, new Promise((done) => setTimeout(done, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Numbers with webhooks (`provisionFleet`, `perAccount` to an account) and the receiver process, with an HTTPS server
 * of its own for each account (`behaviours[account]`, `ok` by default) that knows every number's secret. Returns
 * { receiver, fleet, numbers, ports }.
 */
export async function fleetWithReceiver(system, tls, { numbers, perAccount = 3, name, behaviours = [] }) {
  const servers = Array.from({ length: Math.ceil(numbers / perAccount) }, (_, a) => behaviours[a] ?? { mode: 'ok' });
  const receiver = await startReceiver({ tls, servers });
  const { ports } = receiver;
  const fleet = await provisionFleet(system, {
    numbers,
    perAccount,
    name,
    webhookUrl: (a) => `https://127.0.0.1:${ports[a]}/switchboard/${a}`,
  }).catch(async (error) => {
    await receiver.stop();
    throw error;
  });
  const all = fleet.flatMap((f) => f.numbers);
  receiver.addSecrets(Object.fromEntries(all.map((n) => [n.id, n.webhook_secret])));
  return { receiver, fleet, numbers: all, ports };
}

// ------------------------------------------------------------------------------------------------ child side
async function child() {
  const { verify } = require('@switchboard/signing');
  const secrets = new Map();
  const behaviours = new Map();
  const seen = new Map(); // event id -> requests so far (for `times`)
  const servers = [];
  const hung = new Set();
  const connections = new WeakSet(); // sockets that carried a request already
  let buffer = [];

  const flush = () => {
    if (buffer.length === 0) return;
    process.send({ type: 'arrivals', arrivals: buffer });
    buffer = [];
  };
  setInterval(flush, 20).unref();

  const handler = (port) => (req, res) => {
    const arrived = now();
    const behaviour = behaviours.get(port) ?? { mode: 'ok' };
    const eventId = String(req.headers['x-switchboard-event-id'] ?? '');
    const count = (seen.get(eventId) ?? 0) + 1;
    seen.set(eventId, count);
    const active = behaviour.times === undefined || count <= behaviour.times;
    const mode = active ? behaviour.mode : 'ok';
    const kept = connections.has(req.socket);
    if (!kept) connections.add(req.socket);
    const connection = kept ? 'kept' : req.socket.isSessionReused() ? 'resumed' : 'full';
    const report = (extra) =>
      buffer.push({ port, event_id: eventId, request: count, arrived, mode, connection, ...extra });
    if (mode === 'reset') {
      report({ handled: false, outcome: 'reset' });
      req.socket.destroy();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
      const numberId = body?.number_id;
      const secret = secrets.get(numberId);
      const result = secret
        ? verify({
            secret,
            rawBody: raw,
            timestampHeader: req.headers['x-switchboard-timestamp'],
            signatureHeader: req.headers['x-switchboard-signature'],
          })
        : { valid: false, reason: 'unknown number' };
      const base = {
        call_sid: body?.call?.call_sid,
        number_id: numberId,
        valid: result.valid,
        reason: result.valid ? undefined : result.reason,
        received: now(),
      };
      if (mode === 'hang') {
        hung.add(res);
        report({ ...base, handled: false, outcome: 'hung' });
        res.on('close', () => hung.delete(res));
        return;
      }
      const answer = () => {
        if (res.destroyed || req.socket.destroyed) {
          report({
            ...base,
            handled: result.valid,
            answered: false,
            outcome: 'handled, but the sender was gone before the answer',
            done: now(),
          });
          return;
        }
        res.writeHead(result.valid ? 204 : 401).end();
        report({
          ...base,
          handled: result.valid,
          answered: true,
          outcome: result.valid ? 'answered 204' : 'answered 401',
          done: now(),
        });
      };
      if (mode === 'slow') setTimeout(answer, behaviour.delayMs ?? 1000);
      else answer();
    });
  };

  process.on('message', (message) => {
    if (message.type === 'start') {
      for (const [id, secret] of Object.entries(message.secrets ?? {})) secrets.set(id, secret);
      const tls = { key: readFileSync(message.keyFile), cert: readFileSync(message.certFile) };
      const ports = [];
      let listening = 0;
      message.servers.forEach((behaviour, index) => {
        const server = createServer(tls);
        server.keepAliveTimeout = 5000;
        server.on('tlsClientError', () => undefined);
        server.on('clientError', (_, socket) => socket.destroy());
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address();
          ports[index] = port;
          behaviours.set(port, behaviour);
          server.on('request', handler(port));
          listening += 1;
          if (listening === message.servers.length) process.send({ type: 'ready', ports });
        });
        servers.push(server);
      });
    } else if (message.type === 'secrets') {
      for (const [id, secret] of Object.entries(message.secrets)) secrets.set(id, secret);
    } else if (message.type === 'stop') {
      flush();
      for (const res of hung) res.socket?.destroy();
      for (const server of servers) {
        server.closeAllConnections?.();
        server.close();
      }
      setTimeout(() => process.exit(0), 50);
    }
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.argv.includes('--child')) void child();
