import type { Provider } from '@nestjs/common';
import { LOGGER, type Logger } from '@switchboard/observability';
import { CALLS_MEDIA_CONFIG } from '../config/tokens';
import type { CallsMediaConfig } from '../config/calls-media.config';
import { FilesystemObjectStorage } from './filesystem-object-storage.adapter';
import { OBJECT_STORAGE, type ObjectStorage } from './object-storage';
import { S3ObjectStorage } from './s3-object-storage.adapter';

/** The one place that chooses the recording store, from the config read at start. */
export const objectStorageProvider: Provider = {
  provide: OBJECT_STORAGE,
  inject: [CALLS_MEDIA_CONFIG, LOGGER],
  useFactory: (config: CallsMediaConfig, logger: Logger): ObjectStorage => {
    const storage =
      config.storage.kind === 's3'
        ? new S3ObjectStorage({
            endpoint: config.storage.endpoint,
            bucket: config.storage.bucket,
            region: config.storage.region,
            credentials: { accessKeyId: config.storage.accessKeyId, secretAccessKey: config.storage.secretAccessKey },
          })
        : new FilesystemObjectStorage(config.storage.directory);
    logger.info({ storage: storage.description }, 'recordings are stored in %s', storage.description);
    return storage;
  },
};
