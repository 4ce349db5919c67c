import { natsRoutesReport, perRequest, routeCounter } from './nats-protocol.mjs';

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

describe('NATS per request', () => {
  const round = (cpuUs: number, rps: number) =>
    perRequest({
      requests: 1000,
      seconds: 1000 / rps,
      before: { bytes: 500, ops: { 'RS+': 2 } },
      after: { bytes: 300_500, ops: { 'RS+': 1002, 'RS-': 1000, RMSG: 2000 } },
      cpuBefore: 10,
      cpuAfter: 10 + cpuUs / 1000,
    });

  it("divides the route's bytes and operations and the nats-servers' CPU by the requests", () => {
    expect(round(64, 968)).toEqual({
      requests_per_second: expect.closeTo(968, 6),
      route_bytes_per_request: 300,
      route_ops_per_request: { 'RS+': 1, 'RS-': 1, RMSG: 2 },
      nats_cpu_us_per_request: expect.closeTo(64, 6),
    });
  });

  it("reports each client's median round by CPU", () => {
    const text = natsRoutesReport({
      requests: 1000,
      concurrency: 16,
      rounds: 3,
      results: { stock: [round(70, 900), round(64, 968), round(60, 1000)] },
    });
    expect(text.split('\n').at(-1)).toBe(
      '| stock  |   968 |               64.0 |         300 | 1.00 | 1.00 |        2.00 |',
    );
  });
});
