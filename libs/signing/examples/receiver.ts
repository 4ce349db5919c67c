import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { verify, type CallCompletedWebhookBody } from '@switchboard/signing';

/** The body of a `call.completed` webhook: `{ type, number_id, occurred_at, call: { call_sid, ... } }`. */
export type CallCompletedEvent = CallCompletedWebhookBody;

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A request handler (node:http, node:https, or Express before any body parser) that accepts only
 * deliveries signed with `secret`, handles each call once, and answers quickly.
 */
export function switchboardWebhookHandler(
  secret: string,
  onCallCompleted: (event: CallCompletedEvent) => Promise<void>,
): (req: IncomingMessage, res: ServerResponse) => void {
  // Deliveries are at least once: the same call can arrive twice. Keep this set in your database.
  const handledCalls = new Set<string>();

  return (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    // `void`: node's emitter ignores a returned promise; every failure is answered inside.
    req.on('end', () => void answer());
    const answer = async (): Promise<void> => {
      // 1. Verify the raw bytes exactly as received, before parsing them.
      const rawBody = Buffer.concat(chunks);
      const result = verify({
        secret,
        rawBody,
        timestampHeader: req.headers['x-switchboard-timestamp'],
        signatureHeader: req.headers['x-switchboard-signature'],
        // toleranceSec: 300 by default; older (or future) timestamps are refused as replays.
      });
      if (!result.valid) {
        res.writeHead(401, { 'Content-Type': 'text/plain' }).end(result.reason);
        return;
      }

      // 2. Handle each call once.
      const event = JSON.parse(rawBody.toString('utf8')) as CallCompletedEvent;
      if (event.type !== 'call.completed' || handledCalls.has(event.call.call_sid)) {
        res.writeHead(204).end();
        return;
      }

      // 3. Store or queue the event, then answer 2xx. Any other answer (or none within
      //    the time-out) makes Switchboard try again later, up to 5 attempts in all.
      try {
        await onCallCompleted(event);
        handledCalls.add(event.call.call_sid);
        res.writeHead(204).end();
      } catch {
        res.writeHead(500).end();
      }
    };
  };
}

/** Serves the handler over HTTPS: `startReceiver({ port: 8443, key, cert, secret, onCallCompleted })`. */
export function startReceiver(options: {
  port: number;
  key: string | Buffer;
  cert: string | Buffer;
  secret: string;
  onCallCompleted: (event: CallCompletedEvent) => Promise<void>;
}): Promise<Server> {
  const server = createServer(
    { key: options.key, cert: options.cert },
    switchboardWebhookHandler(options.secret, options.onCallCompleted),
  );
  return new Promise((resolve) => server.listen(options.port, () => resolve(server)));
}
