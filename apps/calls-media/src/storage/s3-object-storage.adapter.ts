import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { assertObjectKey, ObjectNotFoundError, type ObjectStorage, type StoredObject } from './object-storage';

export interface S3ObjectStorageOptions {
  /** Base URL of the S3-compatible service, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  endpoint: string;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Per request; default 30 s. */
  timeoutMs?: number;
}

type S3Module = typeof import('@aws-sdk/client-s3');

/**
 * Objects in an S3-compatible bucket through AWS's SDK (`@aws-sdk/client-s3`, docs/adr/0121): path-style addresses
 * (`<endpoint>/<bucket>/<key>`, which MinIO, Ceph, R2 and AWS all accept), SigV4 by the SDK, a Content-MD5 on every
 * upload, reads as ranged GETs. Checksums are sent only where the operation requires them: the SDK's default
 * (a CRC32 trailer with aws-chunked bodies) is refused by several S3-compatible stores. The SDK is loaded at the first
 * request, so a deployment that keeps recordings on disk never loads it.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly description: string;
  private client: Promise<{ s3: S3Client; sdk: S3Module }> | undefined;

  constructor(private readonly options: S3ObjectStorageOptions) {
    this.description = `S3 bucket ${options.bucket} at ${options.endpoint}`;
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<StoredObject> {
    assertObjectKey(key);
    const { s3, sdk } = await this.connect();
    const md5 = createHash('md5').update(body).digest();
    const answer = await s3.send(
      new sdk.PutObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentMD5: md5.toString('base64'),
      }),
    );
    return { key, size: body.byteLength, etag: unquote(answer.ETag) || md5.toString('hex') };
  }

  async read(key: string, offset: number, length: number): Promise<Uint8Array> {
    assertObjectKey(key);
    if (length <= 0) return new Uint8Array(0);
    const { s3, sdk } = await this.connect();
    try {
      const answer = await s3.send(
        new sdk.GetObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          Range: `bytes=${offset}-${offset + length - 1}`,
        }),
      );
      const bytes = (await answer.Body?.transformToByteArray()) ?? new Uint8Array(0);
      // A store that ignores Range answers the whole object: cut the range out of it.
      return answer.ContentRange ? bytes.subarray(0, length) : bytes.subarray(offset, offset + length);
    } catch (error) {
      if (statusOf(error) === 404 || (error as Error).name === 'NoSuchKey') throw new ObjectNotFoundError(key);
      if (statusOf(error) === 416) return new Uint8Array(0);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    const { s3, sdk } = await this.connect();
    try {
      await s3.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  private connect(): Promise<{ s3: S3Client; sdk: S3Module }> {
    return (this.client ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        endpoint: this.options.endpoint,
        region: this.options.region,
        credentials: this.options.credentials,
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 3,
        requestHandler: { requestTimeout: this.options.timeoutMs ?? 30_000, connectionTimeout: 5_000 },
      }),
    })));
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function unquote(etag: string | undefined): string {
  return (etag ?? '').replace(/^W\//, '').replace(/^"|"$/g, '');
}
