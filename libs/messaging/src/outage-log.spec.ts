import type { Logger } from '@switchboard/observability';
import { OUTAGE_QUIET_MS, OutageLog } from './outage-log';

function recordingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const logger = {
    warn: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'warn', fields, message }),
    info: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'info', fields, message }),
  } as unknown as Logger;
  return { logger, lines };
}

describe('OutageLog', () => {
  const refused = () =>
    Object.assign(
      new Error(
        'Invalid `prisma.$queryRaw()` invocation:\n\n\nRaw query failed. Code: `55000`. Message: `database "x" is not currently accepting connections`',
      ),
      { code: 'P2010' },
    );

  it('logs the first failure of an incident without a stack, counts the rest, and logs the recovery once', () => {
    let now = 1_000;
    const { logger, lines } = recordingLogger();
    const outages = new OutageLog(logger, OUTAGE_QUIET_MS, () => now);
    for (let i = 0; i < 100; i++) {
      outages.failed('database', refused(), { subject: 'numbers.v1.list' });
      now += 100;
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', fields: { outage: 'database', subject: 'numbers.v1.list' } });
    expect(lines[0].fields.reason).toBe(
      'Raw query failed. Code: `55000`. Message: `database "x" is not currently accepting connections` (P2010)',
    );
    expect(JSON.stringify(lines[0])).not.toContain('    at ');

    outages.recovered('database');
    outages.recovered('database');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 'info',
      fields: { outage: 'database', failures: 100, duration_ms: 10_000 },
    });
  });

  it('starts a new incident after a quiet spell, and keeps different outages apart', () => {
    let now = 0;
    const { logger, lines } = recordingLogger();
    const outages = new OutageLog(logger, 1_000, () => now);
    outages.failed('database', refused());
    outages.failed('service_unavailable', new Error('no responders'));
    now += 999;
    outages.failed('database', refused());
    expect(lines.map((line) => line.fields.outage)).toEqual(['database', 'service_unavailable']);
    now += 1_000;
    outages.failed('database', refused());
    expect(lines.map((line) => line.fields.outage)).toEqual(['database', 'service_unavailable', 'database']);
  });
});
