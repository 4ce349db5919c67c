import { connect, type Socket } from 'node:net';

/** An answer read off a raw socket: the status line, headers (lower-case names), the body as text and JSON. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
  /** The server closed the connection without answering. */
  noAnswer: boolean;
}

export interface RawRequestOptions {
  /** The source address to connect from (another 127.x.y.z is another client on loopback). */
  localAddress?: string;
  /** Give up after this long (default 5 s). */
  timeoutMs?: number;
}

/**
 * Sends bytes exactly as given (framing, encodings and all, which fetch would refuse or repair) and reads one
 * answer: up to its Content-Length, or until the server closes the connection.
 */
export function rawRequest(
  baseUrl: string,
  request: string | Buffer,
  options: RawRequestOptions = {},
): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: url.hostname, port: Number(url.port), localAddress: options.localAddress });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(parseAnswer(received));
    };
    const timer = setTimeout(
      () => finish(new Error(`no answer within ${options.timeoutMs ?? 5000} ms to ${String(request).slice(0, 80)}`)),
      options.timeoutMs ?? 5000,
    );
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (isComplete(received)) finish();
    });
    socket.on('close', () => finish());
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? finish() : finish(error),
    );
    socket.write(request);
  });
}

function isComplete(received: Buffer): boolean {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = received.subarray(0, end).toString('latin1');
  // A stream (GET /v1/numbers/{id}/webhook/listen) never ends: its status and headers are the answer.
  if (/\r\ncontent-type:\s*text\/event-stream/i.test(head)) return true;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  return length !== null && received.length >= end + 4 + Number(length[1]);
}

function parseAnswer(received: Buffer): RawAnswer {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, text: received.toString('utf8'), json: undefined, noAnswer: true };
  const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = received.subarray(end + 4).toString('utf8');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text, json, noAnswer: false };
}

/** A request as raw HTTP/1.1 text, closing the connection after the answer. */
export function httpRequestText(
  method: string,
  target: string,
  headers: Record<string, string | number>,
  body?: string,
): string {
  const lines = [
    `${method} ${target} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  if (body !== undefined && !Object.keys(headers).some((k) => /^(content-length|transfer-encoding)$/i.test(k)))
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}
