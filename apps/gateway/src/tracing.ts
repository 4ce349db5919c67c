// Loaded first by main.ts: OpenTelemetry must patch http and pg before they are required.
import { startTracing } from '@switchboard/observability';

startTracing({ service: 'gateway' });
