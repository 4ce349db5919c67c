import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { CallsMediaPrisma } from '../../apps/calls-media/src/prisma/calls-media-prisma';
import { CallsService } from '../../apps/calls-media/src/calls/calls.service';
import {
  AdminClient,
  ApiSession,
  publicRequest,
  readServerSentEvents,
  startSystem,
  waitFor,
  type RunningSystem,
} from './support';

jest.setTimeout(180_000);

const DAY_MS = 86_400_000;
const NOW = new Date('2026-12-01T12:00:00.000Z');

/** RFC 4180 rows of a CSV text (quoted cells, doubled quotes, CRLF line ends). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe('call data: settings, retention, deletion, storage modes and export', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let dataDir: string;

  beforeAll(async () => {
    system = await startSystem({
      env: { RATE_LIMIT_REQUESTS: '100000', WEBHOOK_BACKOFF_BASE_MS: '50', WEBHOOK_BACKOFF_MAX_MS: '200' },
    });
    admin = new AdminClient(system);
    dataDir = system.env.DATA_DIR!;
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 50 })).status).toBe(200);
  });

  afterAll(() => system?.stop());

  const recordingFile = (sid: string) => join(dataDir, 'calls-media', 'recordings', `${sid}.mp3`);

  async function numberOf(session: ApiSession, webhook_url?: string): Promise<{ id: string; phone_number: string }> {
    const created = await session.post('/numbers', { business_phone: '+14155550123', webhook_url });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function call(to: string, fields: Record<string, unknown> = {}): Promise<string> {
    const answer = await admin.request('POST', '/admin/provider/calls', {
      to,
      caller: '+14155550199',
      duration_sec: 60,
      outcome: 'order_placed',
      recording: true,
      transcript: [
        { role: 'agent', text: 'Pizza Planet, how can I help?' },
        { role: 'caller', text: 'Call me back at 415-555-0142 or mail jane.doe@example.com.' },
      ],
      analysis: { summary: 'Jane (jane.doe@example.com) wants a callback.', sentiment: 'positive', successful: true },
      ...fields,
    });
    expect(answer.status).toBe(202);
    return answer.body.call_sid;
  }

  describe('data settings', () => {
    it('answer the defaults, change only what is given, and refuse a bad value changing nothing', async () => {
      const session = await ApiSession.create(system);
      expect((await session.get('/settings/data')).body).toMatchObject({
        storage_mode: 'everything',
        recordings_days: null,
        transcripts_days: null,
      });
      const changed = await session.request('PATCH', '/settings/data', { recordings_days: 30 });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ storage_mode: 'everything', recordings_days: 30, transcripts_days: null });
      for (const [body, named] of [
        [{ recordings_days: 0 }, 'recordings_days'],
        [{ recordings_days: 731 }, 'recordings_days'],
        [{ transcripts_days: 1.5 }, 'transcripts_days'],
        [{ transcripts_days: '30' }, 'transcripts_days'],
        [{ storage_mode: 'some' }, 'storage_mode'],
        [{ storage_mode: null }, 'storage_mode'],
        [{ keep: true }, 'keep'],
      ] as const) {
        const refused = await session.request('PATCH', '/settings/data', body);
        expect(refused.status).toBe(400);
        expect(refused.body.error.code).toBe('invalid_request');
        expect(refused.body.error.message).toContain(named);
      }
      const cleared = await session.request('PATCH', '/settings/data', {
        recordings_days: null,
        transcripts_days: 730,
      });
      expect(cleared.body).toMatchObject({ storage_mode: 'everything', recordings_days: null, transcripts_days: 730 });
      expect((await session.get('/settings/data')).body).toEqual(cleared.body);
      // Another account's settings are its own.
      expect((await (await ApiSession.create(system)).get('/settings/data')).body.transcripts_days).toBeNull();
    });
  });

  describe('retention', () => {
    it('deletes what is older than the period at the sweep, keeps the rest, and a shorter period reaches older calls', async () => {
      const session = await ApiSession.create(system);
      const number = await numberOf(session);
      const old = await call(number.phone_number, { started_at: new Date(NOW.getTime() - 100 * DAY_MS).toISOString() });
      const recent = await call(number.phone_number, {
        started_at: new Date(NOW.getTime() - 5 * DAY_MS).toISOString(),
      });
      expect(existsSync(recordingFile(old))).toBe(true);
      await session.request('PATCH', '/settings/data', { recordings_days: 30, transcripts_days: 60 });

      const swept = await admin.request('POST', '/admin/calls/retention-sweep', { now: NOW.toISOString() });
      expect(swept.status).toBe(200);
      expect(swept.body).toEqual({ recordings_deleted: 1, transcripts_deleted: 1 });

      expect(existsSync(recordingFile(old))).toBe(false);
      expect((await session.get(`/calls/${old}/recording`)).body.error.code).toBe('no_recording');
      expect((await session.get(`/calls/${old}/transcript`)).status).toBe(404);
      const oldCall = (await session.get(`/calls/${old}`)).body;
      expect(oldCall).toMatchObject({
        has_recording: false,
        has_transcript: false,
        analysis: { summary: null, sentiment: 'positive', successful: true },
        recording_deletion: { deleted_at: NOW.toISOString(), deleted_by: 'retention' },
        transcript_deletion: { deleted_at: NOW.toISOString(), deleted_by: 'retention' },
      });
      // Search no longer finds the deleted words.
      expect((await session.get('/calls?q=callback')).body.data.map((c: { id: string }) => c.id)).toEqual([recent]);

      const kept = (await session.get(`/calls/${recent}`)).body;
      expect(kept).toMatchObject({ has_recording: true, has_transcript: true, recording_deletion: null });
      expect(existsSync(recordingFile(recent))).toBe(true);
      expect((await session.get(`/calls/${recent}/transcript`)).status).toBe(200);

      // Again: nothing left to delete.
      const again = await admin.request('POST', '/admin/calls/retention-sweep', { now: NOW.toISOString() });
      expect(again.body).toEqual({ recordings_deleted: 0, transcripts_deleted: 0 });

      // A shorter period applies to the calls already there at the next sweep.
      await session.request('PATCH', '/settings/data', { recordings_days: 1, transcripts_days: 1 });
      const shorter = await admin.request('POST', '/admin/calls/retention-sweep', { now: NOW.toISOString() });
      expect(shorter.body).toEqual({ recordings_deleted: 1, transcripts_deleted: 1 });
      expect(existsSync(recordingFile(recent))).toBe(false);
    });

    it('refuses a bad now with a 400 and sweeps nothing', async () => {
      const refused = await admin.request('POST', '/admin/calls/retention-sweep', { now: 'yesterday' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain('now');
    });
  });

  describe('deletion on request', () => {
    it("deletes a call's recording and transcript for its account, 204 again, 404 for another account", async () => {
      const session = await ApiSession.create(system);
      const stranger = await ApiSession.create(system);
      const number = await numberOf(session);
      const sid = await call(number.phone_number);
      expect(existsSync(recordingFile(sid))).toBe(true);

      expect((await stranger.delete(`/calls/${sid}/recording`)).status).toBe(404);
      expect((await stranger.delete(`/calls/${sid}/transcript`)).body.error.code).toBe('not_found');
      expect(existsSync(recordingFile(sid))).toBe(true);

      const deleted = await session.delete(`/calls/${sid}/recording`);
      expect(deleted.status).toBe(204);
      // Gone from storage before the answer.
      expect(existsSync(recordingFile(sid))).toBe(false);
      expect((await session.delete(`/calls/${sid}/recording`)).status).toBe(204);
      const recording = await session.get(`/calls/${sid}/recording`);
      expect(recording.status).toBe(404);
      expect(recording.body.error.code).toBe('no_recording');

      expect((await session.delete(`/calls/${sid}/transcript`)).status).toBe(204);
      expect((await session.delete(`/calls/${sid}/transcript`)).status).toBe(204);
      const transcript = await session.get(`/calls/${sid}/transcript`);
      expect(transcript.status).toBe(404);
      expect(transcript.body.error.code).toBe('not_found');

      const shown = (await session.get(`/calls/${sid}`)).body;
      expect(shown).toMatchObject({
        has_recording: false,
        has_transcript: false,
        recording_deletion: { deleted_by: `key:${session.keyId}` },
        transcript_deletion: { deleted_by: `key:${session.keyId}` },
      });
      expect(Date.now() - Date.parse(shown.recording_deletion.deleted_at)).toBeLessThan(60_000);
      expect((await session.delete('/calls/CAunknown/recording')).status).toBe(404);
    });
  });

  describe('storage modes', () => {
    /** The call.completed webhook bodies a number's listen stream carries. */
    async function webhooksOf(session: ApiSession, numberId: string, signal: AbortSignal) {
      const bodies: Record<string, unknown>[] = [];
      const response = await fetch(`${system.publicUrl}/v1/numbers/${numberId}/webhook/listen`, {
        headers: { authorization: `Bearer ${session.key}` },
        signal,
      });
      expect(response.status).toBe(200);
      let ready!: () => void;
      const isReady = new Promise<void>((resolve) => (ready = resolve));
      void readServerSentEvents(response.body, ({ event, data }) => {
        if (event === 'ready') ready();
        if (event === 'webhook') bodies.push(JSON.parse(JSON.parse(data).body));
      }).catch(() => undefined);
      await isReady;
      return bodies;
    }

    it.each([
      [
        'no_pii',
        {
          has_recording: false,
          has_transcript: true,
          summary: 'Jane ([redacted:email]) wants a callback.',
          turns: [
            { role: 'agent', text: 'Pizza Planet, how can I help?' },
            { role: 'caller', text: 'Call me back at [redacted:phone] or mail [redacted:email].' },
          ],
        },
      ],
      ['metadata_only', { has_recording: false, has_transcript: false, summary: null, turns: null }],
      [
        'everything',
        {
          has_recording: true,
          has_transcript: true,
          summary: 'Jane (jane.doe@example.com) wants a callback.',
          turns: [
            { role: 'agent', text: 'Pizza Planet, how can I help?' },
            { role: 'caller', text: 'Call me back at 415-555-0142 or mail jane.doe@example.com.' },
          ],
        },
      ],
    ] as const)('%s stores and sends only what the mode allows', async (mode, expected) => {
      const session = await ApiSession.create(system);
      const number = await numberOf(session, 'https://hooks.switchboard.invalid/webhooks');
      expect((await session.request('PATCH', '/settings/data', { storage_mode: mode })).status).toBe(200);
      const streams = new AbortController();
      try {
        const webhooks = await webhooksOf(session, number.id, streams.signal);
        const sid = await call(number.phone_number);
        const shown = (await session.get(`/calls/${sid}`)).body;
        expect(shown).toMatchObject({
          has_recording: expected.has_recording,
          has_transcript: expected.has_transcript,
          analysis: { summary: expected.summary, sentiment: 'positive', successful: true },
        });
        expect(existsSync(recordingFile(sid))).toBe(expected.has_recording);
        const transcript = await session.get(`/calls/${sid}/transcript`);
        if (expected.turns) expect(transcript.body.turns).toEqual(expected.turns);
        else expect(transcript.status).toBe(404);
        const [webhook] = await waitFor(() => (webhooks.length > 0 ? webhooks : undefined), 30_000);
        expect(webhook).toMatchObject({
          type: 'call.completed',
          call: {
            call_sid: sid,
            has_recording: expected.has_recording,
            has_transcript: expected.has_transcript,
            analysis: { summary: expected.summary },
          },
        });
        if (mode !== 'everything') expect(JSON.stringify(webhook)).not.toContain('jane.doe@example.com');
      } finally {
        streams.abort();
      }
    });
  });

  describe('export', () => {
    const CALLS = 1_000;
    let session: ApiSession;
    let exportChunks: jest.SpyInstance;

    /** 1,000 calls straight into calls-media's database: outcomes, directions and texts vary with the index. */
    beforeAll(async () => {
      session = await ApiSession.create(system);
      const prisma = system.services['calls-media']!.get(CallsMediaPrisma);
      const long = 'x'.repeat(10_000);
      await prisma.$executeRawUnsafe(
        `INSERT INTO calls (id, account_id, number_id, phone_number, caller, direction, status, outcome, duration_sec,
                            started_at, has_transcript, recording_key, recording_size, recording_etag, summary, sentiment,
                            successful, custom_analysis)
         SELECT 'CAexport' || lpad(i::text, 6, '0'), $1, 'num_' || (1 + i % 3), '+14155550100',
                CASE WHEN i % 10 = 0 THEN 'anonymous' ELSE '+1415555' || lpad((i % 10000)::text, 4, '0') END,
                CASE WHEN i % 4 = 0 THEN 'outbound' ELSE 'inbound' END, CASE WHEN i % 7 = 0 THEN 'no-answer' ELSE 'completed' END,
                (ARRAY['order_placed','transferred','missed','=cmd|calc'])[1 + i % 4], i % 600,
                $2::timestamptz - make_interval(mins => i), i % 2 = 0,
                CASE WHEN i % 3 = 0 THEN 'CAexport' || i || '.mp3' END, CASE WHEN i % 3 = 0 THEN 10 END, CASE WHEN i % 3 = 0 THEN 'e' END,
                CASE WHEN i = 1 THEN '=HYPERLINK("http://evil.example"), "quoted", and' || chr(10) || 'a line' ELSE 'Summary ' || i END,
                (ARRAY['positive','neutral','negative','unknown'])[1 + i % 4], CASE WHEN i % 5 = 0 THEN NULL ELSE i % 2 = 1 END,
                '{"party_size": 2}'::jsonb
           FROM generate_series(1, ${CALLS}) AS i`,
        session.accountId,
        NOW.toISOString(),
      );
      await prisma.$executeRawUnsafe(
        `INSERT INTO transcript_turns (call_id, position, role, text)
         SELECT 'CAexport' || lpad(i::text, 6, '0'), p, CASE WHEN p = 0 THEN 'agent' ELSE 'caller' END, 'Turn ' || p || ' ' || $1
           FROM generate_series(1, ${CALLS}) AS i, generate_series(0, 1) AS p WHERE i % 2 = 0`,
        long,
      );
      await prisma.$executeRawUnsafe(
        `UPDATE calls SET search = to_tsvector('english', coalesce(summary, '')) WHERE account_id = $1`,
        session.accountId,
      );
      exportChunks = jest.spyOn(system.services['calls-media']!.get(CallsService), 'exportChunk');
    });

    async function exported(query: string): Promise<{ status: number; headers: Headers; text: string }> {
      const response = await fetch(`${system.publicUrl}/v1/calls/export?${query}`, {
        headers: { authorization: `Bearer ${session.key}` },
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    }

    /** Every call the list answers for these filters, all pages. */
    async function listedIds(query: string): Promise<string[]> {
      const ids: string[] = [];
      let after = '';
      for (;;) {
        const page = await session.get(`/calls?limit=100&${query}${after}`);
        expect(page.status).toBe(200);
        ids.push(...page.body.data.map((c: { id: string }) => c.id));
        if (!page.body.has_more) return ids;
        after = `&starting_after=${ids[ids.length - 1]}`;
      }
    }

    it('streams every call as CSV with a header row, an attachment name and formula-safe cells', async () => {
      const answer = await exported('format=csv');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(answer.headers.get('content-disposition')).toMatch(
        /^attachment; filename="calls-\d{4}-\d{2}-\d{2}T\d{6}Z\.csv"$/,
      );
      const rows = parseCsv(answer.text);
      expect(rows[0]).toEqual([
        'id',
        'number_id',
        'phone_number',
        'caller',
        'direction',
        'status',
        'outcome',
        'duration_sec',
        'started_at',
        'has_recording',
        'has_transcript',
      ]);
      expect(rows).toHaveLength(CALLS + 1);
      expect(rows[1][0]).toBe('CAexport000001');
      // A caller's + and an outcome's = open as text, not as a formula.
      expect(rows[1][3]).toBe("'+14155550001");
      const formula = rows.find((row) => row[0] === 'CAexport000003')!;
      expect(formula[6]).toBe("'=cmd|calc");

      const withAnalysis = parseCsv((await exported('format=csv&include=analysis,transcript')).text);
      expect(withAnalysis[0].slice(11)).toEqual([
        'analysis_summary',
        'analysis_sentiment',
        'analysis_successful',
        'analysis_custom',
        'transcript',
      ]);
      const first = withAnalysis[1];
      expect(first[11]).toBe('\'=HYPERLINK("http://evil.example"), "quoted", and\na line');
      expect(first[14]).toBe('{"party_size":2}');
      const second = withAnalysis[2];
      expect(second[15]).toBe(`agent: Turn 0 ${'x'.repeat(10_000)}\ncaller: Turn 1 ${'x'.repeat(10_000)}`);
      expect(withAnalysis).toHaveLength(CALLS + 1);
    });

    it('streams JSON lines, the same calls as the list for every filter', async () => {
      const cases = [
        '',
        'outcome=transferred',
        'outcome=order_placed,missed',
        'direction=outbound',
        'status=no-answer',
        'caller=anonymous',
        'min_duration=100&max_duration=200',
        'sentiment=negative',
        'successful=true',
        'has_recording=true',
        'number_id=num_2',
        `since=${new Date(NOW.getTime() - 300 * 60_000).toISOString()}&until=${new Date(NOW.getTime() - 100 * 60_000).toISOString()}`,
        'q=summary',
        'outcome=transferred&direction=outbound&has_recording=false',
      ];
      for (const query of cases) {
        const answer = await exported(`format=jsonl&${query}`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toBe('application/x-ndjson');
        const lines = answer.text.split('\n');
        expect(lines.pop()).toBe('');
        const calls = lines.map((line) => JSON.parse(line) as { id: string; analysis?: unknown });
        expect({ query, ids: calls.map((c) => c.id) }).toEqual({ query, ids: await listedIds(query) });
        if (calls.length > 0) expect(calls[0].analysis).toBeUndefined();
      }
      const full = (await exported('format=jsonl&include=analysis&outcome=transferred')).text.split('\n')[0];
      expect(JSON.parse(full)).toMatchObject({ analysis: { custom: { party_size: 2 } } });
    });

    it('refuses a bad format, include or filter with a 400 before anything is sent', async () => {
      for (const [query, named] of [
        ['', 'format'],
        ['format=xlsx', 'format'],
        ['format=csv&include=recording', 'include'],
        ['format=csv&sentiment=angry', 'sentiment'],
        ['format=csv&min_duration=5&max_duration=1', 'min_duration'],
      ]) {
        const answer = await exported(query);
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.text).error.message).toContain(named);
      }
      expect((await publicRequest(system, 'GET', '/v1/calls/export?format=csv')).status).toBe(401);
    });

    it('stops reading the database once the client goes away', async () => {
      exportChunks.mockClear();
      // Every call with its two 10 KB turns: ~20 MB, about 40 chunks; the client reads the first bytes and leaves.
      const url = new URL(`${system.publicUrl}/v1/calls/export?format=jsonl&include=transcript`);
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(url, { headers: { authorization: `Bearer ${session.key}` } }, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
        req.end();
      });
      const complete = exportChunks.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const total = Math.ceil((CALLS * 20_500) / (512 * 1024));
      // A chunk already asked for may still arrive; none is asked for after it.
      expect(exportChunks.mock.calls.length).toBeLessThanOrEqual(complete + 1);
      expect(exportChunks.mock.calls.length).toBeLessThan(total / 2);
    });
  });
});
