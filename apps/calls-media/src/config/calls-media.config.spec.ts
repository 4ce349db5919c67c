import * as path from 'node:path';
import { loadCallsMediaConfig } from './calls-media.config';

const s3 = {
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_BUCKET: 'recordings',
  S3_ACCESS_KEY_ID: 'id',
  S3_SECRET_ACCESS_KEY: 'secret',
};

describe('loadCallsMediaConfig', () => {
  it('keeps recordings under DATA_DIR/calls-media/recordings when no S3 store is configured', () => {
    expect(loadCallsMediaConfig({ DATA_DIR: '/var/lib/sb' }).storage).toEqual({
      kind: 'filesystem',
      directory: path.resolve('/var/lib/sb/calls-media/recordings'),
    });
  });

  it('uses the S3-compatible store when all four S3 variables are set', () => {
    expect(loadCallsMediaConfig(s3).storage).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'recordings',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
  });

  it('refuses to start with only part of the S3 settings, naming what is missing', () => {
    expect(() => loadCallsMediaConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'recordings' })).toThrow(
      /missing: S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/,
    );
  });

  it('refuses an endpoint that is not an http(s) URL', () => {
    expect(() => loadCallsMediaConfig({ ...s3, S3_ENDPOINT: 'ftp://store' })).toThrow(/S3_ENDPOINT/);
  });

  it('refuses a grace period that is not a positive integer', () => {
    expect(() => loadCallsMediaConfig({ CALL_ATTRIBUTION_GRACE_MS: '-5' })).toThrow(/CALL_ATTRIBUTION_GRACE_MS/);
    expect(() => loadCallsMediaConfig({ CALL_ATTRIBUTION_GRACE_MS: '0' })).toThrow(/CALL_ATTRIBUTION_GRACE_MS/);
  });
});
