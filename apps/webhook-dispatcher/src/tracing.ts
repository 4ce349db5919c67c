// Loaded first by main.ts: OpenTelemetry must patch pg before it is required.
import { startTracing } from '@switchboard/observability';

// Its only HTTP is the webhooks it sends, each its own span with the trace passed on (HttpsWebhookSender), and the
// probes it answers (docs/adr/0117): no HTTP instrumentation.
startTracing({ service: 'webhook-dispatcher', incomingHttp: false, outgoingHttp: false });
