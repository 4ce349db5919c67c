// Loaded first by main.ts: OpenTelemetry must patch pg, dns and https before they are required.
import { startTracing } from '@switchboard/observability';

startTracing({ service: 'webhook-dispatcher' });
