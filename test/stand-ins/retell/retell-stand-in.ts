import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StandInServer } from '../stand-in-server';

/**
 * A stand-in for the parts of Retell AI's API that numbers-billing calls, written from Retell's API reference
 * (https://docs.retellai.com/api-references): create, update and delete a Retell LLM, create and delete an agent,
 * and register a phone call for custom telephony. Bearer API-key authentication, JSON bodies; 201 on creation, 204
 * on deletion, 404 for an unknown id where Retell's OpenAPI description lists a 404, and 422 for a delete of an agent
 * or LLM that does not exist (or no longer does): `DELETE /delete-agent/{agent_id}` and `/delete-retell-llm/{llm_id}`
 * answer only 204, 400, 401, 422 and 500 (https://docs.retellai.com/api-references/delete-agent); 429 and 500 on
 * request. Not Retell: a test double that asserts what our adapter sends and answers as Retell documents. Its
 * answers are typed with retell-sdk's own types (apps/numbers-billing/src/stand-in-answers.int-spec.ts).
 */
export type RetellFault = 'rate_limited' | 'server_error' | 'bad_request';

export interface RetellRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

export class RetellStandIn extends StandInServer {
  readonly apiKey = `key_${randomBytes(12).toString('hex')}`;
  readonly requests: RetellRequest[] = [];
  /** Faults answered to the next requests, in order (one each). */
  readonly faults: RetellFault[] = [];
  readonly llms = new Map<string, Record<string, unknown>>();
  readonly agents = new Map<string, Record<string, unknown>>();
  readonly calls: Record<string, unknown>[] = [];

  protected async handle(req: IncomingMessage, res: ServerResponse, received: Buffer): Promise<void> {
    const text = received.toString('utf8');
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    this.requests.push({ method: req.method ?? 'GET', path, body });
    const send = (status: number, answer?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { ...(answer === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
      res.end(answer === undefined ? undefined : JSON.stringify(answer));
    };
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) return send(401, { message: 'Invalid API key' });
    const fault = this.faults.shift();
    if (fault === 'rate_limited') return send(429, { message: 'Too many requests' }, { 'retry-after': '1' });
    if (fault === 'server_error') return send(500, { message: 'Internal server error' });
    if (fault === 'bad_request') return send(400, { message: 'Invalid request body' });
    const now = Date.now();

    if (req.method === 'POST' && path === '/create-retell-llm') {
      const llm = {
        ...body,
        llm_id: `llm_${randomBytes(12).toString('hex')}`,
        version: 0,
        last_modification_timestamp: now,
      };
      this.llms.set(llm.llm_id, llm);
      return send(201, llm);
    }
    const llmPath = /^\/(update|delete)-retell-llm\/([^/]+)$/.exec(path);
    if (llmPath) {
      const llm = this.llms.get(llmPath[2]);
      if (!llm && req.method === 'DELETE') return send(422, { status: 'error', message: 'Cannot find requested LLM' });
      if (!llm) return send(404, { message: 'LLM not found' });
      if (req.method === 'PATCH' && llmPath[1] === 'update') {
        Object.assign(llm, body, { last_modification_timestamp: now });
        return send(200, llm);
      }
      if (req.method === 'DELETE' && llmPath[1] === 'delete') {
        this.llms.delete(llmPath[2]);
        return send(204);
      }
    }
    if (req.method === 'POST' && path === '/create-agent') {
      const engine = body.response_engine as { type?: string; llm_id?: string } | undefined;
      if (engine?.type !== 'retell-llm' || !engine.llm_id || !this.llms.has(engine.llm_id))
        return send(400, { message: 'response_engine must name an existing Retell LLM' });
      if (typeof body.voice_id !== 'string') return send(400, { message: 'voice_id is required' });
      const agent = {
        ...body,
        agent_id: `agent_${randomBytes(12).toString('hex')}`,
        version: 0,
        last_modification_timestamp: now,
      };
      this.agents.set(agent.agent_id, agent);
      return send(201, agent);
    }
    const deleteAgent = /^\/delete-agent\/([^/]+)$/.exec(path);
    if (req.method === 'DELETE' && deleteAgent) {
      if (!this.agents.delete(deleteAgent[1]))
        return send(422, { status: 'error', message: 'Cannot find requested agent' });
      return send(204);
    }
    if (req.method === 'POST' && path === '/v2/register-phone-call') {
      if (typeof body.agent_id !== 'string' || !this.agents.has(body.agent_id))
        return send(404, { message: 'Agent not found' });
      const call = {
        call_type: 'phone_call',
        call_id: randomBytes(16).toString('hex'),
        agent_id: body.agent_id,
        agent_version: 0,
        call_status: 'registered',
        from_number: body.from_number,
        to_number: body.to_number,
        direction: body.direction ?? 'inbound',
        metadata: body.metadata,
      };
      this.calls.push(call);
      return send(201, call);
    }
    send(404, { message: `Cannot ${req.method} ${path}` });
  }
}
