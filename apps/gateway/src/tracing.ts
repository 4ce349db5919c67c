// Loaded first by main.ts: OpenTelemetry must patch http and pg before they are required.
import { startTracing } from '@switchboard/observability';

// The gateway makes one span per request it serves itself (http/request-span.ts, docs/adr/0117).
startTracing({ service: 'gateway', incomingHttp: false });
