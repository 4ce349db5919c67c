import { CallsRpc, type CallDataDeletionOutcome } from '@switchboard/contracts';
import type { RpcClient } from '@switchboard/messaging';
import type { FastifyReply } from 'fastify';
import type { CallerOptions } from '../auth';

/**
 * `DELETE .../recording` of the public API and of the console (docs/call-data.md): nothing to answer (204, the route's
 * `@HttpCode`) once the object is gone from storage, or 202 `{ object_pending: true }` while storage has not confirmed.
 */
export async function answerRecordingDeletion(
  rpc: RpcClient,
  callId: string,
  deletedBy: string,
  caller: CallerOptions,
  reply: FastifyReply,
): Promise<CallDataDeletionOutcome | undefined> {
  const outcome = await rpc.request(CallsRpc.deleteRecording, { call_id: callId, deleted_by: deletedBy }, caller);
  if (!outcome.object_pending) return undefined;
  void reply.status(202);
  return outcome;
}
