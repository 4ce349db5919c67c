// Steady load on the cluster for as long as it runs, in three open loops that do not slow down when the system
// does: simulated calls (the operator's provider route, each with a trace of its own) on numbers whose webhooks go
// to the run's receiver; provisions (new accounts as the velocity limit asks: 3 numbers an hour per account); and
// lost-and-found flows (a found item, a claim for it, the reunite). It keeps what each request was answered, so the
// accounting (accounting.mjs) can say afterwards what was lost and what was done twice.
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const AREA_CODE = '415';
/** Each account's starting balance: far more than the run spends ($5 per number, 29 cents per one-minute call). */
const BALANCE_CENTS = 500_000;
/** Calls last a minute: on the scale tier that is 29 cents, 29,000 millicents, with no rounding. */
export const CALL_SECONDS = 60;
export const CALL_CHARGE_MILLICENTS = -29_000;
export const NUMBER_MONTH_MILLICENTS = -500_000;

const traceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, header: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
};
const caller = () => `+1415555${String(1000 + Math.floor(Math.random() * 9000))}`;

export class Load {
  constructor({ client, receiver, log, callsPerSecond = 2, provisionEveryMs = 8000, lostfoundEveryMs = 5000 }) {
    Object.assign(this, { client, receiver, log, callsPerSecond, provisionEveryMs, lostfoundEveryMs });
    this.accounts = [];
    /** Numbers calls may go to: provisioned, and given a moment to reach calls-media's directory. */
    this.callable = [];
    this.numbers = [];
    /** call_sid -> { number, account, traceId, phase } for every report answered 202. */
    this.accepted = new Map();
    /** Reports not answered 202: { status, code, phase }. */
    this.refused = [];
    /** Lost-and-found flows: { account, itemId, claimId, reunited, phase }. */
    this.flows = [];
    this.provisionsRefused = [];
    this.running = false;
    this.loops = [];
    this.inFlight = new Set();
  }

  async createAccount() {
    const n = this.accounts.length + 1;
    const created = await this.client.send('admin', 'POST', '/admin/accounts', {
      body: { name: `Cluster ${n}`, balance_cents: BALANCE_CENTS, tier: 'scale' },
      safe: true,
    });
    if (created.status !== 201) throw new Error(`create account: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.id;
    const key = await this.client.send('admin', 'POST', `/admin/accounts/${id}/api-keys`, { body: {}, safe: true });
    if (key.status !== 201) throw new Error(`create key: ${key.status} ${JSON.stringify(key.body)}`);
    const location = await this.client.send('admin', 'POST', `/admin/accounts/${id}/locations`, {
      body: { name: 'Front desk' },
      safe: true,
    });
    if (location.status !== 201)
      throw new Error(`create location: ${location.status} ${JSON.stringify(location.body)}`);
    const account = { id, key: key.body.key, locationId: location.body.id, provisions: 0, numbers: [] };
    this.accounts.push(account);
    return account;
  }

  /** A number for `account` (a new account when the velocity limit leaves none), its secret given to the receiver. */
  async provision() {
    let account = this.accounts.find((a) => a.provisions < 3);
    if (!account) account = await this.createAccount();
    account.provisions += 1;
    const answer = await this.client.send('public', 'POST', '/numbers', {
      key: account.key,
      body: {
        business_phone: `+1415555${String(2000 + this.numbers.length).padStart(4, '0')}`,
        area_code: AREA_CODE,
        webhook_url: this.receiver.url(`/hooks/${account.id}`),
      },
      headers: { 'idempotency-key': randomUUID() },
      safe: true,
    });
    if (answer.status !== 201) {
      this.provisionsRefused.push({
        status: answer.status,
        code: answer.body?.error?.code ?? answer.error,
        phase: this.log.phase,
      });
      if (answer.status !== 503 && answer.status !== 0) this.log.unexpectedAnswer('POST /v1/numbers', answer);
      return undefined;
    }
    const number = { id: answer.body.id, phone_number: answer.body.phone_number, account, phase: this.log.phase };
    this.receiver.secrets.set(number.id, answer.body.webhook_secret);
    account.numbers.push(number);
    this.numbers.push(number);
    // number.provisioned travels to calls-media's directory over JetStream; a call reported before it arrives waits
    // there (CALL_ATTRIBUTION_GRACE_MS) rather than fails, but a moment's delay keeps the load steady.
    setTimeout(() => this.callable.push(number), 2000).unref();
    return number;
  }

  async reportCall(number) {
    const trace = traceparent();
    const phase = this.log.phase;
    const answer = await this.client.send('admin', 'POST', '/admin/provider/calls', {
      body: { to: number.phone_number, caller: caller(), duration_sec: CALL_SECONDS, outcome: 'order' },
      headers: { traceparent: trace.header },
      // A report that may have reached calls-media is not sent again: the provider would report a second call.
      safe: false,
    });
    if (answer.status === 202) {
      this.accepted.set(answer.body.call_sid, { number, traceId: trace.traceId, phase, sentAt: Date.now() });
    } else {
      this.refused.push({ status: answer.status, code: answer.body?.error?.code ?? answer.error, phase });
      if (answer.status >= 400 && answer.status < 500) this.log.unexpectedAnswer('POST /admin/provider/calls', answer);
    }
  }

  async lostAndFound() {
    const account = this.accounts[this.flows.length % this.accounts.length];
    const n = this.flows.length + 1;
    const flow = { account, phase: this.log.phase };
    this.flows.push(flow);
    const post = (path, body) =>
      this.client.send('public', 'POST', path, {
        key: account.key,
        body,
        headers: { 'idempotency-key': randomUUID() },
        safe: true,
      });
    const description = `Blue umbrella with a wooden handle, tag ${n}`;
    const item = await post('/lostfound/found-items', {
      location_id: account.locationId,
      description,
      category: 'umbrella',
      color: 'blue',
      found_area: 'Lobby',
      storage_ref: `B-${n}`,
      found_by: 'Cluster run',
    });
    if (item.status !== 201) return this.flowFailed(flow, 'found item', item);
    flow.itemId = item.body.id;
    const claim = await post('/lostfound/claims', {
      location_id: account.locationId,
      claimant_name: 'Pat Doe',
      claimant_phone: '+14155550142',
      category: 'umbrella',
      description,
      color: 'blue',
    });
    if (claim.status !== 201) return this.flowFailed(flow, 'claim', claim);
    flow.claimId = claim.body.id;
    const reunite = await post(`/lostfound/claims/${flow.claimId}/reunite`, {
      location_id: account.locationId,
      found_item_id: flow.itemId,
    });
    if (reunite.status !== 200 || reunite.body?.reunited !== true) return this.flowFailed(flow, 'reunite', reunite);
    flow.reunited = true;
  }

  flowFailed(flow, step, answer) {
    flow.failed = { step, status: answer.status, code: answer.body?.error?.code ?? answer.error };
    if (answer.status !== 503 && answer.status !== 0) this.log.unexpectedAnswer(`lost-and-found ${step}`, answer);
  }

  /** Runs `task` every `everyMs` (open loop: a slow answer does not delay the next start), until `stop`. */
  loop(everyMs, task) {
    const run = async () => {
      let next = Date.now();
      while (this.running) {
        const work = task().catch((error) => {
          this.log.count(`error:${error.message.slice(0, 80)}`);
        });
        this.inFlight.add(work);
        work.finally(() => this.inFlight.delete(work));
        next += everyMs;
        const wait = next - Date.now();
        if (wait > 0) await sleep(wait);
        else next = Date.now();
        // Bound what is outstanding when the system stalls: the rest wait their turn.
        while (this.inFlight.size > 200 && this.running) await sleep(50);
      }
    };
    this.loops.push(run());
  }

  /** Accounts and numbers to start with, before the load begins. */
  async seed({ numbers = 9 } = {}) {
    await this.client.send('admin', 'PUT', `/admin/provider/stock/${AREA_CODE}`, {
      body: { available: 100_000 },
      safe: true,
    });
    for (let i = 0; i < numbers; i += 1) await this.provision();
    await sleep(2500);
  }

  start() {
    this.running = true;
    let next = 0;
    this.loop(1000 / this.callsPerSecond, async () => {
      if (this.callable.length === 0) return;
      await this.reportCall(this.callable[(next += 1) % this.callable.length]);
    });
    this.loop(this.provisionEveryMs, () => this.provision());
    this.loop(this.lostfoundEveryMs, () => this.lostAndFound());
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
    await Promise.all([...this.inFlight]);
    this.loops = [];
  }
}
