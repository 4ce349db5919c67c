import { pino } from 'pino';
import { runService, type SelfServingProcess } from './service-runner';

describe('runService with a process that serves its own health (the gateway)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('on SIGTERM drains its readiness, then closes it, then exits 0', async () => {
    const steps: string[] = [];
    const exited = new Promise<number | undefined>((resolve) => {
      jest.spyOn(process, 'exit').mockImplementation(((code?: number) => {
        steps.push(`exit ${code}`);
        resolve(code);
      }) as typeof process.exit);
    });
    const gateway: SelfServingProcess = {
      drain: () => void steps.push('drain'),
      close: async () => void steps.push('close'),
    };

    await runService('gateway', pino({ level: 'silent' }), async () => gateway);
    expect(steps).toEqual([]);
    process.emit('SIGTERM');

    await expect(exited).resolves.toBe(0);
    expect(steps).toEqual(['drain', 'close', 'exit 0']);
  });

  it('exits 1 when the process cannot start, without waiting for a signal', async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(() => {
      throw new Error('exited');
    });

    await expect(
      runService('gateway', pino({ level: 'silent' }), () => Promise.reject(new Error('no database'))),
    ).rejects.toThrow('exited');
    expect(exit).toHaveBeenCalledWith(1);
  });
});
