import { CallsRpc, RECORDING_CHUNK_MAX_BYTES, type RecordingChunk } from '@switchboard/contracts';
import type { RpcClient } from '@switchboard/messaging';
import { recordingStream } from './recording-stream';

/** A stand-in for calls-media: serves reads of an in-memory file and remembers what was asked. */
function fakeCallsMedia(file: Buffer) {
  const asked: { offset: number; length: number }[] = [];
  const rpc = {
    request: jest.fn(
      async (descriptor: unknown, payload: { offset: number; length: number }): Promise<RecordingChunk> => {
        expect(descriptor).toBe(CallsRpc.readRecording);
        asked.push({ offset: payload.offset, length: payload.length });
        return {
          offset: payload.offset,
          data: file.subarray(payload.offset, payload.offset + payload.length).toString('base64'),
        };
      },
    ),
  } as unknown as RpcClient;
  return { rpc, asked };
}

const fileOf = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7) % 251));

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('recordingStream', () => {
  it('streams the requested bytes as reads of at most one chunk each', async () => {
    const file = fileOf(RECORDING_CHUNK_MAX_BYTES * 2 + 123);
    const { rpc, asked } = fakeCallsMedia(file);
    const bytes = await collect(recordingStream(rpc, 'CA1', 0, file.length - 1, { accountId: 'acct' }));
    expect(bytes.equals(file)).toBe(true);
    expect(asked).toEqual([
      { offset: 0, length: RECORDING_CHUNK_MAX_BYTES },
      { offset: RECORDING_CHUNK_MAX_BYTES, length: RECORDING_CHUNK_MAX_BYTES },
      { offset: 2 * RECORDING_CHUNK_MAX_BYTES, length: 123 },
    ]);
  });

  it('streams a range from its first byte to its last, inclusive', async () => {
    const file = fileOf(5000);
    const { rpc, asked } = fakeCallsMedia(file);
    expect((await collect(recordingStream(rpc, 'CA1', 100, 199, {}))).equals(file.subarray(100, 200))).toBe(true);
    expect(asked).toEqual([{ offset: 100, length: 100 }]);
  });

  it('asks for the next chunk only when the reader wants more, and stops when the reader goes away', async () => {
    const file = fileOf(RECORDING_CHUNK_MAX_BYTES * 10);
    const { rpc, asked } = fakeCallsMedia(file);
    const stream = recordingStream(rpc, 'CA1', 0, file.length - 1, {});
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    expect(asked.length).toBeLessThanOrEqual(2);
    await iterator.return?.();
    expect(stream.destroyed).toBe(true);
    expect(asked.length).toBeLessThanOrEqual(2);
  });

  it('fails the stream when the recording ends before its advertised size', async () => {
    const { rpc } = fakeCallsMedia(fileOf(10));
    await expect(collect(recordingStream(rpc, 'CA1', 0, 99, {}))).rejects.toThrow(/ended at byte 10/);
  });
});
