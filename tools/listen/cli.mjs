#!/usr/bin/env node
// Webhooks on a laptop (docs/webhooks.md, "On your laptop"; docs/adr/0128-webhook-signatures-secrets-and-listen.md): receives a number's
// signed webhook deliveries through the public API's stream (GET /v1/numbers/{id}/webhook/listen, Server-Sent Events)
// and forwards each, byte for byte with its signature headers, to a receiver on this machine, printing one line per
// event: `<type> <event id> -> <status>`. Nothing opens the dispatcher's egress rule to private addresses.
//   SWITCHBOARD_API_KEY=sk_... npm run -s listen -- --number num_1 --forward-to http://localhost:4242/webhooks
// Without --base-url it listens to the system `npm start` runs in this checkout (its run file), else
// http://127.0.0.1:3000. Exits 2 on a usage error, 1 when the API refuses (a bad key, another account's number) or
// ends the stream for good (the key revoked, the number released); connects again after any other end of the stream
// (its maximum lifetime, a server restart, a lost connection).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isRunning, readRunFile, runFilePath } from '../dev/run-file.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';
/** The receiver's answer is waited for this long; then the event is printed as timed out. */
const FORWARD_TIMEOUT_MS = 30_000;
/** Reconnection after a lost stream: 1 s, doubling up to 30 s; reset once a stream is ready again. */
const RECONNECT_FIRST_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

const USAGE = `usage: SWITCHBOARD_API_KEY=sk_... npm run -s listen -- --number num_... --forward-to http://localhost:<port>/<path> [--base-url URL]

Forwards each signed webhook delivery of the number (byte for byte, with its X-Switchboard-* and webhook-* headers)
to --forward-to, and prints one line per event: <type> <event id> -> <status>. Ctrl-C stops it.
  SWITCHBOARD_API_KEY  the account's API key; a test key listens to the account's test numbers
  --api-key            the same, but every user of this machine sees it in \`ps\`, and it stays in the shell's history
  --number             the number, num_<n>
  --forward-to         where to POST each event on this machine (http:// or https://)
  --base-url           the public API (or SWITCHBOARD_BASE_URL); default: the system npm start runs in this checkout, else ${DEFAULT_BASE_URL}`;

class UsageError extends Error {}

function options(argv, env) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'api-key': { type: 'string' },
        number: { type: 'string' },
        'forward-to': { type: 'string' },
        'base-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error.message);
  }
  if (values.help) return { help: true };
  const apiKey = values['api-key'] ?? env.SWITCHBOARD_API_KEY;
  if (!apiKey) throw new UsageError('export SWITCHBOARD_API_KEY (the API key to listen with)');
  if (!values.number) throw new UsageError('--number is required');
  if (!/^(num_)?[1-9][0-9]*$/.test(values.number)) throw new UsageError(`--number: not a number id: ${values.number}`);
  if (!values['forward-to']) throw new UsageError('--forward-to is required');
  const forwardTo = httpUrl(values['forward-to'], '--forward-to');
  const baseUrl = httpUrl(values['base-url'] ?? env.SWITCHBOARD_BASE_URL ?? localSystem(env), '--base-url');
  return { apiKey, keyInArguments: values['api-key'] !== undefined, number: values.number, forwardTo, baseUrl };
}

function httpUrl(text, option) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${option}: not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${option}: not an http(s) URL: ${text}`);
  return url;
}

/** The public API of the system `npm start` runs in this checkout, from its run file (tools/dev/run-file.mjs). */
function localSystem(env) {
  const recorded = readRunFile(runFilePath(env, root));
  return recorded && isRunning(recorded.pid) && recorded.public_url ? recorded.public_url : DEFAULT_BASE_URL;
}

/** POSTs the exact bytes with the exact headers; resolves with the status, or the reason no answer came. */
function forward(target, body, headers) {
  return new Promise((done) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(body.length) },
      timeout: FORWARD_TIMEOUT_MS,
    });
    request.on('response', (response) => {
      response.resume();
      done(String(response.statusCode));
    });
    request.on('timeout', () => {
      request.destroy();
      done(`timed out after ${FORWARD_TIMEOUT_MS / 1000} s`);
    });
    request.on('error', (error) => done(`error (${error.code ?? error.message})`));
    request.end(body);
  });
}

/** Reads Server-Sent Events from a fetch body: yields `{ event, data }` per message. */
async function* serverSentEvents(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      let event = 'message';
      const data = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}

/** The API's `end` reasons after which connecting again cannot help (docs/webhooks.md, "On your laptop"). */
const FINAL_ENDS = new Set(['key_revoked', 'number_released']);

/**
 * One connection: resolves with the server's `end` event (`{ reason, message }`) or `undefined` when the stream was
 * cut without one (to connect again); throws `Refused` on a 4xx.
 */
class Refused extends Error {}

async function listenOnce({ apiKey, number, forwardTo, baseUrl }, onReady) {
  const url = new URL(`v1/numbers/${encodeURIComponent(number)}/webhook/listen`, baseUrl.href.replace(/\/?$/, '/'));
  const response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}`, Accept: 'text/event-stream' } });
  if (response.status !== 200) {
    const text = await response.text();
    let reason = text.slice(0, 300);
    try {
      const { error } = JSON.parse(text);
      reason = `${error.code}: ${error.message}`;
    } catch {
      // not the error envelope: shown as it came
    }
    // A key revoked while listening is refused from then on: say so, rather than a bare "unauthorized".
    const hint = response.status === 401 ? '; the key is unknown or revoked: listen with an active key' : '';
    const message = `the API answered ${response.status} (${reason})${hint}`;
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429)
      throw new Refused(message);
    throw new Error(message);
  }
  // Forwarded one after another, so the receiver gets them (and the lines are printed) in the order they came.
  let queue = Promise.resolve();
  let ended;
  for await (const { event, data } of serverSentEvents(response.body)) {
    if (event === 'end') {
      ended = JSON.parse(data);
    } else if (event === 'ready') {
      onReady(JSON.parse(data));
    } else if (event === 'webhook') {
      const copy = JSON.parse(data);
      queue = queue.then(async () => {
        const status = await forward(forwardTo, Buffer.from(copy.body, 'utf8'), copy.headers);
        console.log(`${copy.type} ${copy.event_id} -> ${status}`);
      });
    }
  }
  await queue;
  return ended;
}

async function main() {
  let config;
  try {
    config = options(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (config.help) {
    console.log(USAGE);
    return 0;
  }
  // A process's arguments are readable by every user of the machine (ps, /proc/<pid>/cmdline); its environment is not.
  if (config.keyInArguments)
    console.error('warning: --api-key shows the key to anyone who runs `ps` here; export SWITCHBOARD_API_KEY instead');
  process.on('SIGINT', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
  let wait = RECONNECT_FIRST_MS;
  for (;;) {
    try {
      const ended = await listenOnce(config, (ready) => {
        wait = RECONNECT_FIRST_MS;
        const mode = ready.livemode === false ? ' (test mode)' : '';
        console.error(
          `Ready: forwarding ${ready.number_id}'s webhooks${mode} to ${config.forwardTo.href} (Ctrl-C to stop)`,
        );
      });
      if (ended && FINAL_ENDS.has(ended.reason)) {
        console.error(`error: the API ended the stream (${ended.reason}: ${ended.message})`);
        return 1;
      }
      if (ended?.reason === 'lifetime') {
        // A planned end: connect again at once, so as few events as possible go by unforwarded.
        console.error(`The stream from ${config.baseUrl.origin} reached its maximum lifetime; connecting again`);
        continue;
      }
      const why = ended ? ` (${ended.reason}: ${ended.message})` : '';
      console.error(`The stream from ${config.baseUrl.origin} ended${why}; connecting again in ${wait / 1000} s`);
    } catch (error) {
      if (error instanceof Refused) {
        console.error(`error: ${error.message}`);
        return 1;
      }
      console.error(
        `Cannot listen at ${config.baseUrl.origin}: ${error.cause?.code ?? error.cause?.errors?.[0]?.code ?? error.message}; trying again in ${wait / 1000} s`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, RECONNECT_MAX_MS);
  }
}

process.exitCode = await main();
