import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { HttpsWebhookSender } from '../src/webhook-sender/https-webhook-sender.adapter';
import { answers, startHttpsReceiver, type TestReceiver } from './support/https-receiver';
import { selfSignedCertificate, type TestCertificate } from './support/tls';

jest.setTimeout(30_000);

// Spans recorded in memory, as in a dispatcher that exports them.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

describe("HttpsWebhookSender's span (ADR 0117)", () => {
  let certificate: TestCertificate;
  let sender: HttpsWebhookSender;
  let receiver: TestReceiver;

  beforeAll(async () => {
    certificate = selfSignedCertificate(['hooks-a.test']);
    sender = new HttpsWebhookSender({ extraCa: certificate.cert });
    receiver = await startHttpsReceiver(certificate, answers({ status: 204 }, { status: 503 }));
  });
  afterAll(async () => {
    sender.onApplicationShutdown();
    await receiver.close();
    certificate.remove();
    await provider.shutdown();
  });

  it("is a child of the delivery's span, and the webhook carries it as the receiver's parent", async () => {
    const delivery = trace.getTracer('spec').startSpan('call.completed process');
    const url = new URL(`https://hooks-a.test:${receiver.port}/hook?token=receivers-own`);
    const headers = { 'Content-Type': 'application/json' };
    const send = () =>
      sender.send({
        target: { url, host: 'hooks-a.test', port: receiver.port, address: '127.0.0.1', family: 4 },
        body: Buffer.from('{}'),
        headers,
        timeoutMs: 5_000,
      });
    expect(await context.with(trace.setSpan(ROOT_CONTEXT, delivery), send)).toEqual({ statusCode: 204 });
    expect(await context.with(trace.setSpan(ROOT_CONTEXT, delivery), send)).toEqual({ statusCode: 503 });
    delivery.end();

    const attempts = exporter.getFinishedSpans().filter((span) => span.name === 'webhook POST');
    expect(attempts).toHaveLength(2);
    const { traceId } = delivery.spanContext();
    attempts.forEach((attempt, i) => {
      expect(attempt.kind).toBe(SpanKind.CLIENT);
      expect(attempt.spanContext().traceId).toBe(traceId);
      expect(attempt.parentSpanContext?.spanId).toBe(delivery.spanContext().spanId);
      expect(receiver.requests[i].headers.traceparent).toBe(`00-${traceId}-${attempt.spanContext().spanId}-01`);
    });
    expect(attempts[0].attributes).toEqual({
      'http.request.method': 'POST',
      'url.full': `https://hooks-a.test:${receiver.port}/hook`,
      'server.address': 'hooks-a.test',
      'server.port': receiver.port,
      'network.peer.address': '127.0.0.1',
      'http.response.status_code': 204,
    });
    expect(attempts[1].status.code).toBe(SpanStatusCode.ERROR);
    // The caller's headers are left as they were.
    expect(headers).toEqual({ 'Content-Type': 'application/json' });
  });
});
