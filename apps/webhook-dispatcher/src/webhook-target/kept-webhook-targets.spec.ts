import { ServiceError } from '@switchboard/contracts';
import { KEPT_TARGET_MS, KeptWebhookTargets, MAX_KEPT_TARGETS } from './kept-webhook-targets';
import type { WebhookTarget, WebhookTargets } from './webhook-targets.port';

/** numbers-billing as the dispatcher sees it: answers what it holds now, counts the questions. */
class Source implements WebhookTargets {
  readonly asked: string[] = [];
  readonly targets = new Map<string, WebhookTarget>();
  /** When set, answers wait for it (a look-up on the wire). */
  gate: Promise<void> | undefined;

  set(numberId: string, url: string | null, extra: Partial<WebhookTarget> = {}): void {
    this.targets.set(numberId, {
      number_id: numberId,
      webhook_url: url,
      webhook_secret: `s-${url}`,
      webhook_events: ['call.completed'],
      ...extra,
    });
  }

  async find(numberId: string): Promise<WebhookTarget> {
    this.asked.push(numberId);
    const target = this.targets.get(numberId);
    await this.gate;
    if (!target) throw new ServiceError('not_found', 'No number.');
    return { ...target };
  }
}

function setup() {
  const source = new Source();
  let now = Date.parse('2026-11-26T05:00:00Z');
  const kept = new KeptWebhookTargets(source, () => now);
  kept.startKeeping();
  return { source, kept, advance: (ms: number) => (now += ms), at: () => now };
}

function gated(source: Source): () => void {
  let open!: () => void;
  source.gate = new Promise<void>((resolve) => (open = resolve));
  return () => {
    source.gate = undefined;
    open();
  };
}

describe('KeptWebhookTargets', () => {
  it('asks once for a number, then answers from what it kept', async () => {
    const { source, kept } = setup();
    source.set('num_1', 'https://a.example/hook');
    expect((await kept.find('num_1', 'c1')).webhook_url).toBe('https://a.example/hook');
    expect((await kept.find('num_1', 'c2')).webhook_url).toBe('https://a.example/hook');
    expect(source.asked).toEqual(['num_1']);
  });

  it('asks again once it heard the number changed', async () => {
    const { source, kept } = setup();
    source.set('num_1', 'https://a.example/hook');
    await kept.find('num_1', 'c1');
    source.set('num_1', 'https://b.example/hook');
    kept.forget('num_1');
    expect((await kept.find('num_1', 'c2')).webhook_url).toBe('https://b.example/hook');
    expect(source.asked).toEqual(['num_1', 'num_1']);
  });

  it('asks for a fresh look-up even when it kept the target, and keeps the newer answer', async () => {
    const { source, kept } = setup();
    source.set('num_1', 'https://a.example/hook');
    await kept.find('num_1', 'c1');
    source.set('num_1', 'https://b.example/hook'); // changed; its event not heard yet
    expect((await kept.find('num_1', 'c2', { fresh: true })).webhook_url).toBe('https://b.example/hook');
    expect((await kept.find('num_1', 'c3')).webhook_url).toBe('https://b.example/hook');
    expect(source.asked).toEqual(['num_1', 'num_1']);
  });

  it('uses an answer given across a change once, without keeping it', async () => {
    const { source, kept } = setup();
    source.set('num_1', 'https://a.example/hook');
    const open = gated(source);
    const answer = kept.find('num_1', 'c1');
    source.set('num_1', 'https://b.example/hook'); // the change commits while the look-up is on the wire…
    kept.forget('num_1'); // …and is heard before its answer
    open();
    await answer;
    await kept.find('num_1', 'c2');
    expect(source.asked).toEqual(['num_1', 'num_1']);
  });

  it('keeps nothing while it does not hear changes, and forgets what it kept when it stops', async () => {
    const { source, kept } = setup();
    source.set('num_1', 'https://a.example/hook');
    await kept.find('num_1', 'c1');
    kept.stopKeeping();
    expect(kept.size).toBe(0);
    await kept.find('num_1', 'c2');
    await kept.find('num_1', 'c3');
    expect(source.asked).toEqual(['num_1', 'num_1', 'num_1']);
    kept.startKeeping();
    await kept.find('num_1', 'c4');
    await kept.find('num_1', 'c5');
    expect(source.asked).toHaveLength(4);
  });

  it('does not keep an answer to a look-up that started before it listened', async () => {
    const source = new Source();
    const kept = new KeptWebhookTargets(source);
    source.set('num_1', 'https://a.example/hook');
    const open = gated(source);
    const answer = kept.find('num_1', 'c1');
    kept.startKeeping();
    open();
    await answer;
    expect(kept.size).toBe(0);
  });

  it('forgets everything when changes may have been missed, look-ups on the wire included', async () => {
    const { source, kept } = setup();
    source.set('num_1', 'https://a.example/hook');
    source.set('num_2', 'https://b.example/hook');
    await kept.find('num_1', 'c1');
    const open = gated(source);
    const answer = kept.find('num_2', 'c2');
    kept.forgetAll();
    open();
    await answer;
    expect(kept.size).toBe(0);
  });

  it('asks again after KEPT_TARGET_MS without a word', async () => {
    const { source, kept, advance } = setup();
    source.set('num_1', 'https://a.example/hook');
    await kept.find('num_1', 'c1');
    advance(KEPT_TARGET_MS - 1);
    await kept.find('num_1', 'c2');
    advance(1);
    await kept.find('num_1', 'c3');
    expect(source.asked).toEqual(['num_1', 'num_1']);
  });

  it('keeps a target signed with a previous secret no longer than its overlap', async () => {
    const { source, kept, advance, at } = setup();
    const overlapEnds = new Date(at() + 60_000).toISOString();
    source.set('num_1', 'https://a.example/hook', {
      previous_webhook_secret: 'old',
      previous_webhook_secret_expires_at: overlapEnds,
    });
    await kept.find('num_1', 'c1');
    advance(59_999);
    expect((await kept.find('num_1', 'c2')).previous_webhook_secret).toBe('old');
    advance(1);
    source.set('num_1', 'https://a.example/hook'); // the overlap is over: numbers-billing answers one secret
    expect((await kept.find('num_1', 'c3')).previous_webhook_secret).toBeUndefined();
    expect(source.asked).toEqual(['num_1', 'num_1']);
  });

  it('never keeps a previous secret whose overlap it was not told', async () => {
    const { source, kept } = setup();
    source.set('num_1', 'https://a.example/hook', { previous_webhook_secret: 'old' });
    await kept.find('num_1', 'c1');
    await kept.find('num_1', 'c2');
    expect(source.asked).toEqual(['num_1', 'num_1']);
  });

  it('keeps nothing of a failed look-up', async () => {
    const { source, kept } = setup();
    await expect(kept.find('num_9', 'c1')).rejects.toMatchObject({ code: 'not_found' });
    source.set('num_9', 'https://a.example/hook');
    expect((await kept.find('num_9', 'c2')).webhook_url).toBe('https://a.example/hook');
  });

  it('keeps at most MAX_KEPT_TARGETS, the least recently used going first', async () => {
    const { source, kept } = setup();
    for (let i = 1; i <= MAX_KEPT_TARGETS + 1; i += 1) source.set(`num_${i}`, `https://h${i}.example/`);
    await kept.find('num_1', 'c');
    for (let i = 2; i <= MAX_KEPT_TARGETS; i += 1) await kept.find(`num_${i}`, 'c');
    await kept.find('num_1', 'c'); // used again: now the most recent
    await kept.find(`num_${MAX_KEPT_TARGETS + 1}`, 'c'); // one too many: num_2 goes
    expect(kept.size).toBe(MAX_KEPT_TARGETS);
    source.asked.length = 0;
    await kept.find('num_1', 'c');
    await kept.find('num_2', 'c');
    expect(source.asked).toEqual(['num_2']);
  });
});
