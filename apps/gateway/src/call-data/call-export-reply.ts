import { Readable } from 'node:stream';
import { CallsRpc, EXPORT_CHUNK_MAX_BYTES, type ExportCallsQuery } from '@switchboard/contracts';
import type { RpcClient } from '@switchboard/messaging';
import type { FastifyReply } from 'fastify';
import type { CallerOptions } from '../auth';

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson' } as const;

/**
 * `GET /v1/calls/export` and the console's same route (docs/call-data.md): the calls matching the list's filters as
 * CSV or JSON lines, streamed chunk by chunk. The first chunk is asked for before the answer starts, so a bad filter is
 * a 400 like the list's; each further chunk only when the client has read the last (the gateway holds about one), and
 * none once the client has gone. A failure midway ends the connection without the last line break.
 */
export async function answerExport(
  rpc: RpcClient,
  query: ExportCallsQuery,
  caller: CallerOptions,
  reply: FastifyReply,
  now = new Date(),
): Promise<void> {
  const first = await rpc.request(CallsRpc.exportChunk, query, caller);
  async function* chunks(): AsyncGenerator<string> {
    let chunk = first;
    for (;;) {
      if (chunk.data) yield chunk.data;
      if (chunk.next === null) return;
      chunk = await rpc.request(CallsRpc.exportChunk, { ...query, after: chunk.next }, caller);
    }
  }
  const name = `calls-${now.toISOString().slice(0, 19).replaceAll(':', '')}Z.${query.format}`;
  await reply
    .status(200)
    .header('Content-Type', CONTENT_TYPES[query.format])
    .header('Content-Disposition', `attachment; filename="${name}"`)
    .header('Cache-Control', 'no-store')
    .send(Readable.from(chunks(), { objectMode: false, highWaterMark: EXPORT_CHUNK_MAX_BYTES }));
}
