import { Readable } from 'node:stream';
import { CallsRpc, RECORDING_CHUNK_MAX_BYTES } from '@switchboard/contracts';
import type { RpcCallOptions, RpcClient } from '@switchboard/messaging';

/**
 * Bytes `[start, end]` of a recording as a stream that asks calls-media for one bounded chunk at a time, only
 * when the client is ready for more: the gateway never holds more than about a chunk of the file, and stops
 * asking when the client goes away (docs/adr/0121-calls-and-recordings.md).
 */
export function recordingStream(
  rpc: RpcClient,
  callId: string,
  start: number,
  end: number,
  options: RpcCallOptions,
): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    let offset = start;
    while (offset <= end) {
      const length = Math.min(RECORDING_CHUNK_MAX_BYTES, end + 1 - offset);
      const chunk = await rpc.request(CallsRpc.readRecording, { call_id: callId, offset, length }, options);
      const bytes = Buffer.from(chunk.data, 'base64');
      if (bytes.length === 0)
        throw new Error(`recording ${callId} ended at byte ${offset}, before its advertised size`);
      yield bytes.length > length ? bytes.subarray(0, length) : bytes;
      offset += Math.min(bytes.length, length);
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: RECORDING_CHUNK_MAX_BYTES });
}
