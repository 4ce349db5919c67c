import { routeCounter } from './nats-protocol.mjs';

describe('routeCounter', () => {
  it('counts route operations and bytes, skipping message payloads even when they look like operations', () => {
    const counter = routeCounter();
    const payload = 'RS+ $G fake\r\n'; // a payload that reads like an operation
    const text =
      'RS+ $G _INBOX.abc\r\n' +
      `RMSG $G bench.echo _INBOX.abc.1 ${payload.length}\r\n${payload}\r\n` +
      'HMSG $G _INBOX.abc.1 12 14\r\nNATS/1.0\r\n\r\nok\r\n' +
      'RS- $G _INBOX.abc\r\nPING\r\n';
    // Fed in awkward pieces: a line split, a payload split across chunks.
    const bytes = Buffer.from(text, 'latin1');
    for (const [from, to] of [
      [0, 5],
      [5, 40],
      [40, 41],
      [41, 90],
      [90, bytes.length],
    ])
      counter.feed(bytes.subarray(from, to));
    expect(counter.counts).toEqual({ bytes: bytes.length, ops: { 'RS+': 1, RMSG: 1, HMSG: 1, 'RS-': 1, PING: 1 } });
  });
});
