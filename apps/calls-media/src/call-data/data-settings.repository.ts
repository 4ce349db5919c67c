import { Injectable } from '@nestjs/common';
import { DEFAULT_STORAGE_MODE, type DataSettingsView, type StorageMode } from '@switchboard/contracts';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';

/** An account without a row keeps everything, forever. */
const DEFAULTS: DataSettingsView = {
  storage_mode: DEFAULT_STORAGE_MODE,
  recordings_days: null,
  transcripts_days: null,
};

/** The accounts' storage modes and retention periods (`account_data_settings`). */
@Injectable()
export class DataSettingsRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  async find(accountId: string): Promise<DataSettingsView> {
    const row = await this.prisma.accountDataSettings.findUnique({ where: { account_id: accountId } });
    return row ? viewOf(row) : { ...DEFAULTS };
  }

  /** The mode a call of this account is stored in, read when the call is recorded. */
  async storageModeOf(accountId: string): Promise<StorageMode> {
    const row = await this.prisma.accountDataSettings.findUnique({
      where: { account_id: accountId },
      select: { storage_mode: true },
    });
    return (row?.storage_mode as StorageMode | undefined) ?? DEFAULT_STORAGE_MODE;
  }

  /** Changes the fields given (undefined: unchanged; null: keep forever) in one upsert and answers the result. */
  async update(accountId: string, change: Partial<DataSettingsView>): Promise<DataSettingsView> {
    const row = await this.prisma.accountDataSettings.upsert({
      where: { account_id: accountId },
      create: { account_id: accountId, ...DEFAULTS, ...change },
      update: { ...change, updated_at: new Date() },
    });
    return viewOf(row);
  }
}

function viewOf(row: {
  storage_mode: string;
  recordings_days: number | null;
  transcripts_days: number | null;
}): DataSettingsView {
  return {
    storage_mode: row.storage_mode as StorageMode,
    recordings_days: row.recordings_days,
    transcripts_days: row.transcripts_days,
  };
}
