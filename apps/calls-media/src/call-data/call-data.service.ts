import { Inject, Injectable } from '@nestjs/common';
import {
  ServiceError,
  type CallDataDeletionOutcome,
  type DataSettingsView,
  type RetentionSweepResult,
  type UpdateDataSettingsBody,
} from '@switchboard/contracts';
import { LOGGER, Metrics, type Logger } from '@switchboard/observability';
import { OBJECT_STORAGE, type ObjectStorage } from '../storage/object-storage';
import { CallDataDeletionsRepository } from './call-data-deletions.repository';
import { DataSettingsRepository } from './data-settings.repository';

/** Calls one retention batch touches: bounded, so a sweep never holds many rows locked or one long transaction. */
export const RETENTION_BATCH = 500;
/** Queued object deletions one drain step reads. */
const DRAIN_BATCH = 100;

/**
 * What an account keeps of its calls and for how long (docs/call-data.md): its data settings, deletion of a call's
 * recording or transcript on request, the retention sweep, and the deletion of the objects they let go of.
 */
@Injectable()
export class CallDataService {
  constructor(
    private readonly settings: DataSettingsRepository,
    private readonly deletions: CallDataDeletionsRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  dataSettings(accountId: string): Promise<DataSettingsView> {
    return this.settings.find(accountId);
  }

  /** Only the fields given change; a shorter period applies to older calls on the next sweep. */
  updateDataSettings(accountId: string, body: UpdateDataSettingsBody): Promise<DataSettingsView> {
    const change: Partial<DataSettingsView> = {};
    if (body.storage_mode !== undefined) change.storage_mode = body.storage_mode;
    if (body.recordings_days !== undefined) change.recordings_days = body.recordings_days;
    if (body.transcripts_days !== undefined) change.transcripts_days = body.transcripts_days;
    return this.settings.update(accountId, change);
  }

  /**
   * The call lets go of its recording and the object is deleted before the answer; when storage does not confirm it,
   * the key stays queued and the answer says the deletion is pending (retried by every sweep until it succeeds).
   */
  async deleteRecording(accountId: string, callId: string, deletedBy: string): Promise<CallDataDeletionOutcome> {
    const { result, key } = await this.deletions.deleteRecording(accountId, callId, deletedBy, new Date());
    if (result === 'not_found') throw callNotFound();
    if (result === 'already_deleted' || !key) return { object_pending: false };
    Metrics.callDataDeleted().add(1, { what: 'recording', why: 'request' });
    this.logger.info({ call_sid: callId, deleted_by: deletedBy }, 'recording deleted on request');
    const pending = await this.drain([key]);
    return { object_pending: pending > 0 };
  }

  async deleteTranscript(accountId: string, callId: string, deletedBy: string): Promise<CallDataDeletionOutcome> {
    const result = await this.deletions.deleteTranscript(accountId, callId, deletedBy, new Date());
    if (result === 'not_found') throw callNotFound();
    if (result === 'deleted') {
      Metrics.callDataDeleted().add(1, { what: 'transcript', why: 'request' });
      this.logger.info({ call_sid: callId, deleted_by: deletedBy }, 'transcript deleted on request');
    }
    return { object_pending: false };
  }

  /**
   * Deletes what each account's retention periods let expire at `now`, batch by batch, then every queued object.
   * Safe to stop at any point and to run again: a batch commits whole, a queued key is deleted until storage confirms.
   * Only one replica sweeps at a time; one that finds the sweep under way stops, as does one whose `stop` turns true.
   */
  async sweep(now = new Date(), stop: () => boolean = () => false): Promise<RetentionSweepResult> {
    const started = Date.now();
    const result = { recordings_deleted: 0, transcripts_deleted: 0 };
    for (;;) {
      const count = await this.deletions.expireRecordings(now, RETENTION_BATCH);
      if (count === null) return this.sweptElsewhere(result);
      result.recordings_deleted += count;
      if (count > 0) Metrics.callDataDeleted().add(count, { what: 'recording', why: 'retention' });
      if (count < RETENTION_BATCH) break;
      if (stop()) return this.stopped(result);
    }
    for (;;) {
      const count = await this.deletions.expireTranscripts(now, RETENTION_BATCH);
      if (count === null) return this.sweptElsewhere(result);
      result.transcripts_deleted += count;
      if (count > 0) Metrics.callDataDeleted().add(count, { what: 'transcript', why: 'retention' });
      if (count < RETENTION_BATCH) break;
      if (stop()) return this.stopped(result);
    }
    const pending = await this.drain();
    this.logger.info(
      { ...result, objects_still_pending: pending, duration_ms: Date.now() - started, now: now.toISOString() },
      'retention sweep done',
    );
    return result;
  }

  /**
   * Deletes queued objects from storage (all of them, or just `keys`), each claimed first so that two replicas'
   * drains never delete the same one; answers how many storage refused, which stay queued with their error for the
   * next drain.
   */
  async drain(keys?: string[]): Promise<number> {
    let refused = 0;
    let after: string | undefined;
    for (;;) {
      const batch = await this.deletions.claim(DRAIN_BATCH, { after, only: keys });
      if (batch.length === 0) return refused;
      for (const { key, call_id } of batch) {
        try {
          await this.storage.delete(key);
          await this.deletions.deleted(key);
        } catch (err) {
          refused += 1;
          await this.deletions.failed(key, err instanceof Error ? err.message : String(err));
          this.logger.warn({ err, key, call_sid: call_id }, 'object storage did not delete a recording; will retry');
        }
      }
      after = batch[batch.length - 1].key;
    }
  }

  private stopped(result: RetentionSweepResult): RetentionSweepResult {
    this.logger.info(result, 'retention sweep stopped for shutdown; the next sweep goes on');
    return result;
  }

  private sweptElsewhere(result: RetentionSweepResult): RetentionSweepResult {
    this.logger.info(result, 'retention sweep stopped: another replica is sweeping');
    return result;
  }
}

function callNotFound(): ServiceError {
  return new ServiceError('not_found', 'No call with that id.');
}
