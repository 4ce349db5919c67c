// Loaded first by main.ts: OpenTelemetry must patch pg before it is required.
import { startTracing } from '@switchboard/observability';

startTracing({ service: 'lostfound' });
