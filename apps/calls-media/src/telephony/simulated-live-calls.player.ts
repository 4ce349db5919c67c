import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DEFAULT_TURN_INTERVAL_MS } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import { PollingWorker } from '@switchboard/service-runtime';
import { CALL_REPORT_SINK, LIVE_CALL_SINK, type CallReportSink, type LiveCallSink } from './call-report-sink.port';
import {
  SimulatedLiveCallsRepository,
  type SimulatedLiveCall,
  type SimulatedLivePlan,
} from './simulated-live-calls.repository';
import { simulatedCallReport } from './simulated-call-report';

/** How long past its next step's time a call stays with the replica playing it before another takes it over. */
const LEASE_MS = 10_000;
/** How often each replica looks for calls whose player stopped. */
const TAKE_OVER_MS = 2_000;

/**
 * Plays the simulated provider's live calls (`live` on `POST /admin/provider/calls`, docs/live-calls.md): the start at
 * once, each transcript turn `turn_interval_ms` apart, then the end, through the same sinks a real provider's adapter
 * uses. Each call is kept in the database with its next step, and leased by the replica playing it: a calls-media that
 * stops mid-call leaves it to be taken over (by itself once restarted, or another replica), as a real provider would go
 * on sending its events whatever happened to us. A step is played before it is marked done, so one played twice (a
 * crash between the two) is a repeated provider event, which the sinks ignore.
 */
@Injectable()
export class SimulatedLiveCallsPlayer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly takeOver: PollingWorker;
  private stopped = false;

  constructor(
    private readonly calls: SimulatedLiveCallsRepository,
    @Inject(CALL_REPORT_SINK) private readonly reports: CallReportSink,
    @Inject(LIVE_CALL_SINK) private readonly live: LiveCallSink,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.takeOver = new PollingWorker({
      intervalMs: TAKE_OVER_MS,
      passAtStart: true,
      pass: async () => {
        const now = new Date();
        for (const call of await this.calls.takeOver(now, new Date(now.getTime() + LEASE_MS)))
          this.schedule(call.call_sid, call.next_at.getTime() - now.getTime());
      },
      onError: (err) => this.logger.warn({ err }, 'simulated live calls: take-over failed; will retry'),
    });
  }

  onApplicationBootstrap(): void {
    this.takeOver.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    // The calls stay in the database: their leases run out and a replica (or this one, restarted) goes on with them.
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.takeOver.stop();
  }

  /** Keeps the call, then plays its start at once; answers once the call is kept. */
  async play(plan: SimulatedLivePlan, cause: { requestId?: string } = {}): Promise<void> {
    const interval = plan.command.live?.turn_interval_ms ?? DEFAULT_TURN_INTERVAL_MS;
    await this.calls.add(plan, interval, new Date(Date.now() + interval + LEASE_MS));
    this.logger.info({ call_sid: plan.call_sid, request_id: cause.requestId }, 'simulated live call begins');
    this.schedule(plan.call_sid, 0);
  }

  private schedule(callSid: string, delayMs: number): void {
    if (this.stopped || this.timers.has(callSid)) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(callSid);
        this.step(callSid).catch((err: unknown) => {
          // Left leased: the take-over plays the step again once the lease runs out.
          this.logger.warn({ err, call_sid: callSid }, 'simulated live call step failed; it is tried again');
        });
      },
      Math.max(0, delayMs),
    );
    timer.unref();
    this.timers.set(callSid, timer);
  }

  private async step(callSid: string): Promise<void> {
    const call = await this.calls.find(callSid);
    if (!call || this.stopped) return;
    const turns = call.plan.command.transcript ?? [];
    const startedAt = new Date(call.plan.started_at);
    if (call.next_step === 0) {
      await this.live.started({
        call_sid: callSid,
        to: call.plan.command.to,
        caller: call.plan.command.caller,
        direction: call.plan.command.direction ?? 'inbound',
        started_at: startedAt,
      });
    } else if (call.next_step <= turns.length) {
      const position = call.next_step - 1;
      await this.live.transcript(callSid, [turns[position]], position);
    } else {
      await this.reports.receive(simulatedCallReport(callSid, call.plan.command, startedAt));
      await this.calls.remove(callSid);
      this.logger.info({ call_sid: callSid }, 'simulated live call ended');
      return;
    }
    await this.next(call);
  }

  private async next(call: SimulatedLiveCall): Promise<void> {
    const now = Date.now();
    const nextAt = new Date(now + call.interval_ms);
    if (await this.calls.advance(call.plan.call_sid, call.next_step, nextAt, new Date(nextAt.getTime() + LEASE_MS)))
      this.schedule(call.plan.call_sid, call.interval_ms);
  }
}
