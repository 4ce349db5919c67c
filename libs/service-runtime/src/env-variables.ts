import type { EnvVariable } from './env';
import { MESSAGING_VARIABLES } from './messaging-env';

/**
 * What every service reads through the shared libraries, beside its own variables: its database
 * (@switchboard/persistence), NATS (`messagingConfigFromEnv`), logs and traces (@switchboard/observability) and, for
 * the services without an HTTP server of their own, the health server (`runService`).
 */
export function sharedServiceVariables(service: {
  /** `GATEWAY`, `NUMBERS_BILLING`, ...: the prefix of `<SERVICE>_DATABASE_URL`. */
  prefix: string;
  /** Its directory under `DATA_DIR`. */
  directory: string;
  /** The gateway serves its probes itself, on `PORT` and `ADMIN_PORT`. */
  healthServer: boolean;
}): EnvVariable[] {
  const variables: EnvVariable[] = [
    {
      name: `${service.prefix}_DATABASE_URL`,
      shown: `unset: embedded PGlite in \`DATA_DIR/${service.directory}\``,
      meaning: 'PostgreSQL URL',
    },
    ...Object.values(MESSAGING_VARIABLES),
    { name: 'LOG_LEVEL', default: 'info', meaning: 'pino log level; secrets are never logged' },
    {
      name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      shown: 'unset (trace ids in logs and headers, no spans recorded)',
      meaning:
        'export traces over OTLP/HTTP (with `OTEL_TRACES_SAMPLER`, `OTEL_NODE_DISABLED_INSTRUMENTATIONS`; README)',
    },
  ];
  if (service.healthServer)
    variables.push({
      name: 'HEALTH_PORT',
      shown: 'unset (no health server)',
      meaning: '`/healthz`, `/readyz` and `/metrics`',
    });
  return variables;
}

/** The README table of `variables`, in their order. */
export function renderEnvTable(variables: readonly EnvVariable[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const shown = (variable: EnvVariable) =>
    variable.shown ?? (variable.default === undefined ? 'unset' : `\`${variable.default}\``);
  return [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...variables.map((v) => `| \`${v.name}\` | ${cell(shown(v))} | ${cell(v.meaning)} |`),
  ].join('\n');
}
