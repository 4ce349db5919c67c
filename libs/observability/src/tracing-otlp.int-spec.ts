import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TS_REGISTER } from '@switchboard/testing';

const fixture = join(__dirname, '..', 'test', 'otlp-export-process.ts');

/** Runs the fixture (a service's start, one span, tracing stopped) and gives what it printed. */
async function runFixture(env: NodeJS.ProcessEnv): Promise<{ pgPatched: boolean; otlpExporterLoaded: boolean }> {
  const child = spawn(process.execPath, ['-r', TS_REGISTER, fixture], {
    env: { ...process.env, OTEL_SDK_DISABLED: '', OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the fixture exited with ${code}:\n${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

// The OTLP exporter and the pg instrumentation are loaded only when spans are exported (docs/adr/0117).
// Each case starts Node processes of its own (TypeScript loaded by a register hook): seconds each, past Jest's 5 s.
jest.setTimeout(60_000);

describe('tracing over OTLP/HTTP, in a process of its own', () => {
  const received: { path: string; body: string }[] = [];
  let collector: Server;
  let endpoint: string;

  beforeAll(async () => {
    // A stand-in collector: OTLP/HTTP with JSON bodies, as @opentelemetry/exporter-trace-otlp-http sends them.
    collector = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    collector.listen(0, '127.0.0.1');
    await once(collector, 'listening');
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });
  afterAll(() => collector.close());
  beforeEach(() => (received.length = 0));

  /** Every span the collector received, from OTLP's JSON. */
  function exportedSpans(): { name: string; kind: number }[] {
    type Body = { resourceSpans: { scopeSpans: { spans: { name: string; kind: number }[] }[] }[] };
    return received
      .filter((request) => request.path === '/v1/traces')
      .flatMap((request) => (JSON.parse(request.body) as Body).resourceSpans)
      .flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
  }

  it('with OTEL_EXPORTER_OTLP_ENDPOINT: instruments pg and sends the span, named by the service', async () => {
    expect(await runFixture({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toEqual({
      pgPatched: true,
      otlpExporterLoaded: true,
    });
    const traces = received.filter((request) => request.path === '/v1/traces');
    expect(traces).toHaveLength(1);
    const body = traces[0].body;
    expect(body).toContain('"exported-work"');
    expect(body).toContain('"otlp-export-process"');
  });

  it('instruments the HTTP requests a process serves and sends, unless told to leave either side', async () => {
    const kinds = async (env: NodeJS.ProcessEnv) => {
      received.length = 0;
      await runFixture({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, FIXTURE_HTTP_REQUEST: '1', ...env });
      return exportedSpans()
        .map((span) => `${span.kind} ${span.name}`)
        .sort();
    };
    // OTLP's kinds: 2 a server span, 3 a client span.
    expect(await kinds({})).toEqual(['1 exported-work', '2 GET', '3 GET']);
    expect(await kinds({ FIXTURE_INCOMING_HTTP: 'false' })).toEqual(['1 exported-work', '3 GET']);
    expect(await kinds({ FIXTURE_OUTGOING_HTTP: 'false' })).toEqual(['1 exported-work', '2 GET']);
    expect(await kinds({ FIXTURE_INCOMING_HTTP: 'false', FIXTURE_OUTGOING_HTTP: 'false' })).toEqual([
      '1 exported-work',
    ]);
  });

  it('without it: loads neither the exporter nor the pg instrumentation, and sends nothing', async () => {
    expect(await runFixture({})).toEqual({ pgPatched: false, otlpExporterLoaded: false });
    expect(received).toEqual([]);
  });
});
