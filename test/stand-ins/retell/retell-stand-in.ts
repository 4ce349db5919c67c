import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StandInServer } from '../stand-in-server';

/**
 * A stand-in for the parts of Retell AI's API that numbers-billing calls, written from Retell's API reference
 * (https://docs.retellai.com/api-references): create, update and delete a Retell LLM, create, update and delete an
 * agent (its `post_call_analysis_data` checked item by item against Retell's item types, `ANALYSIS_ITEM_KEYS`), and
 * register a phone call for custom telephony. Bearer API-key authentication, JSON bodies; 201 on creation, 204
 * on deletion, 404 for an unknown id where Retell's OpenAPI description lists a 404, and 422 for a delete of an agent
 * or LLM that does not exist (or no longer does): `DELETE /delete-agent/{agent_id}` and `/delete-retell-llm/{llm_id}`
 * answer only 204, 400, 401, 422 and 500 (https://docs.retellai.com/api-references/delete-agent); 429 and 500 on
 * request. Not Retell: a test double that asserts what our adapter sends and answers as Retell documents. Its
 * answers are typed with retell-sdk's own types (apps/numbers-billing/src/stand-in-answers.int-spec.ts).
 */
export type RetellFault = 'rate_limited' | 'server_error' | 'bad_request';

/**
 * The keys each `post_call_analysis_data` item type may have, from Retell's published types (retell-sdk's
 * `AgentCreateParams` / `AgentUpdateParams` item interfaces; apps/numbers-billing/src/stand-in-answers.int-spec.ts
 * fails to compile when they differ); the required ones are `ANALYSIS_ITEM_REQUIRED`.
 */
export const ANALYSIS_ITEM_KEYS = {
  string: ['type', 'name', 'description', 'conditional_prompt', 'examples', 'required'],
  enum: ['type', 'name', 'description', 'choices', 'conditional_prompt', 'required'],
  boolean: ['type', 'name', 'description', 'conditional_prompt', 'required'],
  number: ['type', 'name', 'description', 'conditional_prompt', 'required'],
} as const;
export const ANALYSIS_ITEM_REQUIRED = {
  string: ['type', 'name', 'description'],
  enum: ['type', 'name', 'description', 'choices'],
  boolean: ['type', 'name', 'description'],
  number: ['type', 'name', 'description'],
} as const;

/**
 * What is wrong with a `post_call_analysis_data` value (absent and null are allowed), or null: an array of items of
 * Retell's item types, each with its required keys, known keys only, and text where Retell takes text.
 */
export function analysisDataProblem(data: unknown): string | null {
  if (data === undefined || data === null) return null;
  if (!Array.isArray(data)) return 'post_call_analysis_data must be an array';
  for (const [index, item] of (data as unknown[]).entries()) {
    const at = `post_call_analysis_data[${index}]`;
    if (typeof item !== 'object' || item === null) return `${at} must be an object`;
    const fields = item as Record<string, unknown>;
    const type = fields.type as keyof typeof ANALYSIS_ITEM_KEYS;
    // Retell's `system-presets` items are not taken here: numbers-billing never sends them.
    if (!Object.hasOwn(ANALYSIS_ITEM_KEYS, type)) return `${at}.type ${String(fields.type)} is not supported`;
    const unknown = Object.keys(fields).filter((key) => !(ANALYSIS_ITEM_KEYS[type] as readonly string[]).includes(key));
    if (unknown.length > 0) return `${at} has unknown keys ${unknown.join(', ')}`;
    const missing = ANALYSIS_ITEM_REQUIRED[type].filter((key) => fields[key] === undefined);
    if (missing.length > 0) return `${at} is missing ${missing.join(', ')}`;
    if (typeof fields.name !== 'string' || !fields.name) return `${at}.name must be a non-empty string`;
    if (typeof fields.description !== 'string') return `${at}.description must be a string`;
    if (
      type === 'enum' &&
      (!Array.isArray(fields.choices) || !(fields.choices as unknown[]).every((choice) => typeof choice === 'string'))
    )
      return `${at}.choices must be an array of strings`;
  }
  return null;
}

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
      const analysisProblem = analysisDataProblem(body.post_call_analysis_data);
      if (analysisProblem) return send(400, { message: analysisProblem });
      const agent = {
        ...body,
        agent_id: `agent_${randomBytes(12).toString('hex')}`,
        version: 0,
        last_modification_timestamp: now,
      };
      this.agents.set(agent.agent_id, agent);
      return send(201, agent);
    }
    const updateAgent = /^\/update-agent\/([^/]+)$/.exec(path);
    if (req.method === 'PATCH' && updateAgent) {
      const agent = this.agents.get(updateAgent[1]);
      if (!agent) return send(404, { message: 'Agent not found' });
      const analysisProblem = analysisDataProblem(body.post_call_analysis_data);
      if (analysisProblem) return send(400, { message: analysisProblem });
      // The latest draft changes in place (this stand-in keeps no versions): the fields sent replace their values.
      Object.assign(agent, body, { last_modification_timestamp: now });
      return send(200, agent);
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
