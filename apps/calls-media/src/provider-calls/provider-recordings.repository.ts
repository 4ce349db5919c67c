import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';

export interface StoredProviderRecording {
  key: string;
  size: number;
  etag: string;
  content_type: string;
}

/** Recordings fetched from the telephony provider, and their joining with the calls they belong to (ADR 0083). */
@Injectable()
export class ProviderRecordingsRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  find(callSid: string): Promise<StoredProviderRecording | null> {
    return this.prisma.providerRecording.findUnique({
      where: { call_sid: callSid },
      select: { key: true, size: true, etag: true, content_type: true },
    });
  }

  /** Whether this recording was stored before (its callback came again). */
  async known(recordingSid: string): Promise<boolean> {
    return (await this.prisma.providerRecording.count({ where: { recording_sid: recordingSid } })) > 0;
  }

  /** Records a stored recording once; a second one for the same call is left out (the first is kept). */
  async add(callSid: string, recordingSid: string, stored: StoredProviderRecording): Promise<boolean> {
    const { rows } = await sql`INSERT INTO provider_recordings (call_sid, recording_sid, key, size, etag, content_type)
          VALUES (${callSid}, ${recordingSid}, ${stored.key}, ${stored.size}::int, ${stored.etag}, ${stored.content_type})
          ON CONFLICT DO NOTHING RETURNING 1`.execute(this.prisma.$kysely());
    return rows.length === 1;
  }

  /** Gives a call recorded without audio the recording that came after its report. True when a call took it. */
  async attachToCall(callSid: string, stored: StoredProviderRecording): Promise<boolean> {
    const { rows } = await sql`UPDATE calls SET recording_key = ${stored.key}, recording_size = ${stored.size}::int,
                 recording_etag = ${stored.etag}, recording_content_type = ${stored.content_type}
           WHERE id = ${callSid} AND recording_key IS NULL RETURNING 1`.execute(this.prisma.$kysely());
    return rows.length === 1;
  }
}
