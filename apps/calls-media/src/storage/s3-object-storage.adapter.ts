import { createHash } from 'node:crypto';
import { assertObjectKey, ObjectNotFoundError, type ObjectStorage, type StoredObject } from './object-storage';
import { EMPTY_PAYLOAD_SHA256, sha256Hex, signSigV4, uriEncode, type SigV4Credentials } from './sigv4';

export interface S3ObjectStorageOptions {
  /** Base URL of the S3-compatible service, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  endpoint: string;
  bucket: string;
  region: string;
  credentials: SigV4Credentials;
  /** Per request; default 30 s. */
  timeoutMs?: number;
  /** The clock used for signing (tests). */
  now?: () => Date;
}

/**
 * Objects in an S3-compatible bucket over plain HTTP(S), path-style (`<endpoint>/<bucket>/<key>`, which MinIO,
 * Ceph, R2 and AWS all accept), signed with SigV4 from node:crypto. Reads are ranged GETs.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly description: string;
  private readonly timeoutMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: S3ObjectStorageOptions) {
    this.description = `S3 bucket ${options.bucket} at ${options.endpoint}`;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.now = options.now ?? (() => new Date());
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<StoredObject> {
    const md5 = createHash('md5').update(body).digest();
    const response = await this.send('PUT', key, {
      headers: { 'content-type': contentType, 'content-md5': md5.toString('base64') },
      body,
    });
    await expectOk(response, 'PUT', key);
    const etag = unquote(response.headers.get('etag')) || md5.toString('hex');
    return { key, size: body.byteLength, etag };
  }

  async read(key: string, offset: number, length: number): Promise<Uint8Array> {
    if (length <= 0) return new Uint8Array(0);
    const response = await this.send('GET', key, { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
    if (response.status === 404) {
      await response.body?.cancel();
      throw new ObjectNotFoundError(key);
    }
    if (response.status === 416) {
      await response.body?.cancel();
      return new Uint8Array(0);
    }
    await expectOk(response, 'GET', key);
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A store that ignores Range answers 200 with the whole object: cut the range out of it.
    if (response.status === 200) return bytes.subarray(offset, offset + length);
    return bytes.subarray(0, length);
  }

  async delete(key: string): Promise<void> {
    const response = await this.send('DELETE', key, {});
    if (response.status === 404) {
      await response.body?.cancel();
      return;
    }
    await expectOk(response, 'DELETE', key);
    await response.body?.cancel();
  }

  private async send(
    method: string,
    key: string,
    init: { headers?: Record<string, string>; body?: Uint8Array },
  ): Promise<Response> {
    assertObjectKey(key);
    const url = new URL(`${this.options.endpoint}/${uriEncode(this.options.bucket, false)}/${uriEncode(key, true)}`);
    const payloadHash = init.body ? sha256Hex(init.body) : EMPTY_PAYLOAD_SHA256;
    const headers = signSigV4({ method, url, headers: init.headers ?? {}, payloadHash }, this.options.credentials, {
      region: this.options.region,
      service: 's3',
      now: this.now(),
    });
    return fetch(url, {
      method,
      headers,
      body: init.body,
      redirect: 'error',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
  }
}

async function expectOk(response: Response, method: string, key: string): Promise<void> {
  if (response.ok) return;
  const text = (await response.text().catch(() => '')).slice(0, 300);
  throw new Error(`S3 ${method} ${key} failed with ${response.status}: ${text}`);
}

function unquote(etag: string | null): string {
  return (etag ?? '').replace(/^W\//, '').replace(/^"|"$/g, '');
}
