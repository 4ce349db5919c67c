import { CallsRpc, ServiceError } from '@switchboard/contracts';
import type { RpcClient } from '@switchboard/messaging';
import type { FastifyReply } from 'fastify';
import type { CallerOptions } from '../auth';
import { decideRange, etagMatches, quoteEtag } from './recording-range';
import { recordingStream } from './recording-stream';

export interface RecordingRequestHeaders {
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
}

/**
 * A call's recording as `audio/mpeg`, whole or one byte range (206; 416 when unsatisfiable), with `If-Range` and
 * `If-None-Match`: the answer of `GET /v1/calls/{id}/recording` and of the console's same route, for the caller's
 * account (calls-media answers another account's call as unknown).
 */
export async function answerRecording(
  rpc: RpcClient,
  callId: string,
  headers: RecordingRequestHeaders,
  caller: CallerOptions,
  reply: FastifyReply,
): Promise<void> {
  const info = await rpc.request(CallsRpc.recording, { call_id: callId }, caller);
  void reply
    .header('Accept-Ranges', 'bytes')
    .header('ETag', quoteEtag(info.etag))
    .header('Cache-Control', 'private, no-cache')
    .header('Content-Disposition', `inline; filename="${info.call_sid}.mp3"`);
  if (etagMatches(headers.ifNoneMatch, info.etag)) {
    await reply.status(304).send();
    return;
  }
  const decision = decideRange(headers.range, info.size, { ifRange: headers.ifRange, etag: info.etag });
  if (decision.kind === 'unsatisfiable') {
    void reply.header('Content-Range', `bytes */${info.size}`);
    throw new ServiceError(
      'range_not_satisfiable',
      `The recording has ${info.size} bytes; the requested range is outside it.`,
    );
  }
  const [start, end] = decision.kind === 'partial' ? [decision.start, decision.end] : [0, info.size - 1];
  void reply.header('Content-Type', info.content_type).header('Content-Length', String(end - start + 1));
  if (decision.kind === 'partial') void reply.status(206).header('Content-Range', `bytes ${start}-${end}/${info.size}`);
  else void reply.status(200);
  await reply.send(recordingStream(rpc, info.call_sid, start, end, caller));
}
