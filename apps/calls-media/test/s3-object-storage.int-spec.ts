import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CallsRpc,
  DataSettingsRpc,
  NumberProvisionedEvent,
  RetentionRpc,
  SimulatedProviderRpc,
} from '@switchboard/contracts';
import { CallsMediaWorld } from './calls-media.harness';
import { aNumberStateChanged } from './factories/number-state.factory';
import { aSimulatedCall } from './factories/provider-call.factory';
import { beepRecordingMp3 } from '../src/telephony/mp3/beep-recording';
import { ObjectNotFoundError } from '../src/storage/object-storage';
import { S3ObjectStorage } from '../src/storage/s3-object-storage.adapter';

jest.setTimeout(60_000);

const ACCESS_KEY = 'AKIDTESTSTORE';
const SECRET = 'test-secret/with+odd=chars';
const REGION = 'eu-test-1';
const BUCKET = 'recordings-test';

/**
 * A tiny S3 stand-in that checks each request the way S3 does, written independently of the adapter: the
 * Authorization header's shape, the scope, the payload hash, and the signature recomputed from what arrived on
 * the wire (method, raw path, the signed headers as received).
 */
class FakeS3 {
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();
  readonly log: { method: string; path: string; status: number; signedHeaders: string }[] = [];
  /** Requests answered 503 SlowDown before the store works again. */
  slowDowns = 0;
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = req.url ?? '/';
    const answer = (status: number, text = '', headers: Record<string, string | number> = {}) => {
      this.log.push({
        method: req.method ?? '',
        path,
        status,
        signedHeaders: /SignedHeaders=([^,]+)/.exec(req.headers.authorization ?? '')?.[1] ?? '',
      });
      res.writeHead(status, headers).end(text);
    };
    if (this.slowDowns > 0) {
      this.slowDowns -= 1;
      return answer(503, '<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
    }
    const problem = this.verify(req, path, body);
    if (problem) return answer(403, `<Error><Code>SignatureDoesNotMatch</Code><Message>${problem}</Message></Error>`);
    const prefix = `/${BUCKET}/`;
    if (!path.startsWith(prefix)) return answer(404, '<Error><Code>NoSuchBucket</Code></Error>');
    const key = decodeURIComponent(path.slice(prefix.length).split('?')[0]);
    if (req.method === 'PUT') {
      if (req.headers['content-md5'] !== createHash('md5').update(body).digest('base64'))
        return answer(400, '<Error><Code>BadDigest</Code></Error>');
      this.objects.set(key, { body, contentType: String(req.headers['content-type']) });
      return answer(200, '', { ETag: `"${createHash('md5').update(body).digest('hex')}"` });
    }
    const object = this.objects.get(key);
    if (req.method === 'DELETE') {
      this.objects.delete(key);
      return answer(204);
    }
    if (req.method !== 'GET') return answer(405);
    if (!object) return answer(404, '<Error><Code>NoSuchKey</Code></Error>');
    const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
    if (!range) return answer(200, object.body.toString('latin1'), { 'Content-Type': object.contentType });
    const start = Number(range[1]);
    if (start >= object.body.length) return answer(416, '<Error><Code>InvalidRange</Code></Error>');
    const end = Math.min(Number(range[2]), object.body.length - 1);
    this.log.push({ method: 'GET', path, status: 206, signedHeaders: '' });
    res
      .writeHead(206, {
        'Content-Range': `bytes ${start}-${end}/${object.body.length}`,
        'Content-Length': end - start + 1,
      })
      .end(object.body.subarray(start, end + 1));
  }

  /** Null when the request is signed correctly, else what is wrong. */
  private verify(req: IncomingMessage, path: string, body: Buffer): string | null {
    const auth =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        req.headers.authorization ?? '',
      );
    if (!auth) return 'malformed Authorization header';
    const [, accessKey, date, region, signedHeaders, signature] = auth;
    if (accessKey !== ACCESS_KEY) return 'unknown access key';
    if (region !== REGION) return 'wrong region';
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    if (!/^\d{8}T\d{6}Z$/.test(amzDate) || !amzDate.startsWith(date))
      return 'x-amz-date missing or not matching the scope';
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    if (payloadHash !== createHash('sha256').update(body).digest('hex'))
      return 'x-amz-content-sha256 is not the hash of the body';
    const names = signedHeaders.split(';');
    for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256'])
      if (!names.includes(required)) return `${required} is not signed`;
    const [rawPath, rawQuery = ''] = path.split('?');
    const canonicalQuery = rawQuery
      .split('&')
      .filter(Boolean)
      .map((pair) => {
        const [name, value = ''] = pair.split('=');
        return [encodeRfc3986(decodeURIComponent(name)), encodeRfc3986(decodeURIComponent(value))].join('=');
      })
      .sort()
      .join('&');
    const canonical = [
      req.method,
      rawPath,
      canonicalQuery,
      names.map((name) => `${name}:${String(req.headers[name] ?? '').trim()}\n`).join(''),
      signedHeaders,
      payloadHash,
    ].join('\n');
    const toSign = [
      'AWS4-HMAC-SHA256',
      amzDate,
      `${date}/${region}/s3/aws4_request`,
      createHash('sha256').update(canonical).digest('hex'),
    ].join('\n');
    let key = createHmac('sha256', `AWS4${SECRET}`).update(date).digest();
    for (const part of [region, 's3', 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
    const expected = createHmac('sha256', key).update(toSign).digest('hex');
    return expected === signature ? null : 'signature does not match';
  }
}

/** SigV4's URI encoding: everything but A-Z a-z 0-9 - _ . ~ percent-encoded, upper-case hex. */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

let s3: FakeS3;

beforeEach(async () => {
  s3 = new FakeS3();
  await s3.start();
});

afterEach(async () => {
  await s3.stop();
});

function storage(secret = SECRET): S3ObjectStorage {
  return new S3ObjectStorage({
    endpoint: s3.url,
    bucket: BUCKET,
    region: REGION,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: secret },
  });
}

describe('S3ObjectStorage', () => {
  it('stores, reads ranges of and deletes an object, every request signed as S3 checks it', async () => {
    const bytes = beepRecordingMp3(3);
    const stored = await storage().put('CA0123456789abcdef0123456789abcdef.mp3', bytes, 'audio/mpeg');
    expect(stored).toEqual({
      key: 'CA0123456789abcdef0123456789abcdef.mp3',
      size: bytes.length,
      etag: createHash('md5').update(bytes).digest('hex'),
    });
    expect(s3.objects.get(stored.key)).toEqual({ body: bytes, contentType: 'audio/mpeg' });
    expect(Buffer.from(await storage().read(stored.key, 100, 50)).equals(bytes.subarray(100, 150))).toBe(true);
    expect(
      Buffer.from(await storage().read(stored.key, bytes.length - 5, 50)).equals(bytes.subarray(bytes.length - 5)),
    ).toBe(true);
    expect((await storage().read(stored.key, bytes.length, 10)).byteLength).toBe(0);
    await storage().delete(stored.key);
    expect(s3.objects.has(stored.key)).toBe(false);
    expect(s3.log.filter((entry) => entry.status === 403)).toEqual([]);
    // The SDK signs what S3 requires, and the body's MD5 and type with them.
    expect(s3.log.find((entry) => entry.method === 'PUT')?.signedHeaders.split(';')).toEqual(
      expect.arrayContaining(['content-md5', 'content-type', 'host', 'x-amz-content-sha256', 'x-amz-date']),
    );
  });

  it('retries a store that asks to slow down, with the same signed request, and gives up after three tries', async () => {
    s3.slowDowns = 1;
    await storage().put('slow.mp3', Buffer.from('abc'), 'audio/mpeg');
    expect(s3.log.filter((entry) => entry.method === 'PUT').map((entry) => entry.status)).toEqual([503, 200]);
    s3.slowDowns = 3;
    await expect(storage().read('slow.mp3', 0, 3)).rejects.toMatchObject({ $metadata: { httpStatusCode: 503 } });
  });

  it('reports a missing object as not found', async () => {
    await expect(storage().read('missing.mp3', 0, 10)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('fails loudly when the store refuses the signature', async () => {
    await expect(storage('the-wrong-secret').put('x.mp3', Buffer.from('abc'), 'audio/mpeg')).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
      $metadata: { httpStatusCode: 403 },
    });
    expect(s3.objects.size).toBe(0);
  });

  it('refuses keys that could escape the bucket path', async () => {
    await expect(storage().put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid object key/);
  });
});

describe('calls-media with S3 recording storage', () => {
  it('keeps a reported call recording in the bucket and streams it back from there', async () => {
    const world = await CallsMediaWorld.create();
    try {
      await world.start({
        S3_ENDPOINT: s3.url,
        S3_BUCKET: BUCKET,
        S3_REGION: REGION,
        S3_ACCESS_KEY_ID: ACCESS_KEY,
        S3_SECRET_ACCESS_KEY: SECRET,
      });
      const number = aNumberStateChanged();
      await world.publishNumberState(NumberProvisionedEvent, number);
      const { call_sid } = await world.rpc.request(
        SimulatedProviderRpc.reportCall,
        aSimulatedCall({ to: number.phone_number, duration_sec: 10, recording: true }),
      );
      const expected = beepRecordingMp3(10);
      expect(s3.objects.get(`${call_sid}.mp3`)?.body.equals(expected)).toBe(true);
      const chunk = await world.rpc.request(
        CallsRpc.readRecording,
        { call_id: call_sid, offset: 0, length: expected.length },
        { accountId: number.account_id },
      );
      expect(Buffer.from(chunk.data, 'base64').equals(expected)).toBe(true);
    } finally {
      await world.close();
    }
  });

  it('deletes a recording from the bucket on request and by retention (DeleteObject, signed)', async () => {
    const world = await CallsMediaWorld.create();
    try {
      await world.start({
        S3_ENDPOINT: s3.url,
        S3_BUCKET: BUCKET,
        S3_REGION: REGION,
        S3_ACCESS_KEY_ID: ACCESS_KEY,
        S3_SECRET_ACCESS_KEY: SECRET,
      });
      const number = aNumberStateChanged();
      await world.publishNumberState(NumberProvisionedEvent, number);
      const ctx = { accountId: number.account_id };
      const report = (started_at: string) =>
        world.rpc.request(
          SimulatedProviderRpc.reportCall,
          aSimulatedCall({ to: number.phone_number, duration_sec: 5, recording: true, started_at }),
        );
      const requested = (await report('2026-11-30T10:00:00.000Z')).call_sid;
      const expired = (await report('2026-01-01T10:00:00.000Z')).call_sid;
      expect(s3.objects.has(`${requested}.mp3`) && s3.objects.has(`${expired}.mp3`)).toBe(true);

      const outcome = await world.rpc.request(
        CallsRpc.deleteRecording,
        { call_id: requested, deleted_by: 'key:key_1' },
        ctx,
      );
      expect(outcome).toEqual({ object_pending: false });
      expect(s3.objects.has(`${requested}.mp3`)).toBe(false);
      expect(s3.log).toContainEqual(
        expect.objectContaining({
          method: 'DELETE',
          path: `/${BUCKET}/${requested}.mp3?x-id=DeleteObject`,
          status: 204,
        }),
      );

      await world.rpc.request(DataSettingsRpc.update, { recordings_days: 30 }, ctx);
      expect(await world.rpc.request(RetentionRpc.sweep, { now: '2026-12-01T00:00:00.000Z' })).toEqual({
        recordings_deleted: 1,
        transcripts_deleted: 0,
      });
      expect(s3.objects.has(`${expired}.mp3`)).toBe(false);
    } finally {
      await world.close();
    }
  });
});
