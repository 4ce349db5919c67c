import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { signedHeaders } from '@switchboard/signing';
import { selfSignedCertificate, type TestCertificate } from '../../apps/webhook-dispatcher/test/support/tls';
import { AdminClient, ApiSession, startSystem, waitFor, type JsonBody, type RunningSystem } from './support';

jest.setTimeout(240_000);

const root = resolve(__dirname, '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
/** What the examples say where an integrator puts their own: swapped for the test system's before they run. */
const BASE_URL_PLACEHOLDER = "'http://127.0.0.1:3000'";
const API_KEY_PLACEHOLDER = "'sk_live_...'";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; never throws (the test says what failed, with the output). */
function run(command: string, args: string[], cwd: string): Promise<Run> {
  // npm run sets npm_* variables (the workspace's prefix and config): the scratch project must not inherit them.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  return new Promise((done) => {
    execFile(command, args, { cwd, env, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function ok(step: string, result: Run): Run {
  if (result.code !== 0) throw new Error(`${step} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

interface Example {
  source: string;
  lang: 'ts' | 'js';
  code: string;
}

/** The fenced ts/js blocks of a Markdown file that use `@switchboard/sdk`. */
function sdkExamples(file: string): Example[] {
  const markdown = readFileSync(join(root, file), 'utf8');
  return [...markdown.matchAll(/```(ts|js)\n([\s\S]*?)```/g)]
    .filter((match) => match[2].includes("'@switchboard/sdk'"))
    .map((match) => ({ source: file, lang: match[1] as 'ts' | 'js', code: match[2] }));
}

/** The receiver of docs/webhooks.md, exactly as the page shows it. */
function documentedReceiver(): string {
  const markdown = readFileSync(join(root, 'docs/webhooks.md'), 'utf8');
  const block = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].find((match) =>
    match[1].includes('export function startReceiver'),
  );
  if (!block) throw new Error('docs/webhooks.md has no receiver (a ts block exporting startReceiver)');
  return block[1];
}

/** A tarball's file list and package.json. */
function tarball(file: string): { files: string[]; manifest: Record<string, JsonBody> } {
  const tar = (...args: string[]) => {
    const result = spawnSync('tar', args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`tar ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  return {
    files: tar('-tzf', file).split('\n').filter(Boolean),
    manifest: JSON.parse(tar('-xzOf', file, 'package/package.json')),
  };
}

/** A POST to the receiver over HTTPS, trusting the test certificate; the answer's status and body. */
function post(port: number, ca: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((done, fail) => {
    const req = httpsRequest(
      {
        host: 'localhost',
        port,
        path: '/hooks',
        method: 'POST',
        ca,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Issue 48: the SDK and the signing library installed the way an integrator gets them (docs/adr/0137). `npm run
 * sdk:pack` packs both; a project in a temporary directory, outside the workspace, installs the two tarballs; the
 * SDK examples of README.md and libs/sdk/README.md are type-checked there under strict TypeScript and run against a
 * booted system; the receiver of docs/webhooks.md is copied there as written, run, and sent deliveries.
 */
describe('the SDK and signing packages, installed outside the workspace', () => {
  let scratch: string;
  let tarballs: { signing: string; sdk: string };
  let typecheck: { node16: Run; bundler: Run };
  let system: RunningSystem;
  let certificate: TestCertificate;
  const examples = [...sdkExamples('README.md'), ...sdkExamples('libs/sdk/README.md')].map((example, i) => ({
    ...example,
    file: `example-${i + 1}.${example.lang === 'ts' ? 'ts' : 'cjs'}`,
  }));

  /** Packs, installs, writes the project's files and type-checks them (alongside the system's start). */
  async function prepareProject(): Promise<void> {
    const packed = join(scratch, 'tarballs');
    ok('npm run sdk:pack', await run('npm', ['run', '-s', 'sdk:pack', '--', '--out', packed], root));
    const files = readdirSync(packed);
    const find = (prefix: string) =>
      join(
        packed,
        files.find((file) => file.startsWith(prefix))!,
      );
    tarballs = { signing: find('switchboard-signing-'), sdk: find('switchboard-sdk-') };

    const project = join(scratch, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
    // @types/node at the workspace's version, which npm's cache holds; the two tarballs together, as the README says.
    const typesNode = JSON.parse(readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8')).version;
    ok(
      'npm install',
      await run(
        'npm',
        [
          'install',
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          tarballs.signing,
          tarballs.sdk,
          `@types/node@${typesNode}`,
        ],
        project,
      ),
    );

    for (const example of examples) writeFileSync(join(project, example.file), example.code);
    writeFileSync(join(project, 'receiver.ts'), documentedReceiver());
    writeFileSync(
      join(project, 'both-esm.ts'),
      `import { createRequire } from 'node:module';
import { createSwitchboardClient, SwitchboardError, verify, type SwitchboardClient } from '@switchboard/sdk';
import { verify as signingVerify, signedHeaders } from '@switchboard/signing';

export function neverCalled(client: SwitchboardClient) {
  // @ts-expect-error: not a path of the API (the client's types are the API's, not any)
  return client.GET('/v1/no-such-path');
}
const require = createRequire(import.meta.url);
const required = require('@switchboard/sdk') as typeof import('@switchboard/sdk');
const entry = (name: string) => ({ import: import.meta.resolve(name).split('/').slice(-2).join('/'), require: require.resolve(name).split('/').slice(-2).join('/') });
console.log(JSON.stringify({
  entries: [entry('@switchboard/sdk'), entry('@switchboard/signing')],
  client: typeof createSwitchboardClient,
  sameClass: required.SwitchboardError === SwitchboardError,
  sameVerify: verify === signingVerify,
  headers: Object.keys(signedHeaders('whsec_x', '{}')),
}));
`,
    );
    writeFileSync(
      join(project, 'both-cjs.cts'),
      `import sdk = require('@switchboard/sdk');
import signing = require('@switchboard/signing');

export function neverCalled(client: sdk.SwitchboardClient) {
  // @ts-expect-error: not a path of the API (the client's types are the API's, not any)
  return client.GET('/v1/no-such-path');
}
void (async () => {
  const imported = await import('@switchboard/sdk');
  console.log(JSON.stringify({
    client: typeof sdk.createSwitchboardClient,
    sameClass: imported.SwitchboardError === sdk.SwitchboardError,
    sameVerify: sdk.verify === signing.verify,
    headers: Object.keys(signing.signedHeaders('whsec_x', '{}')),
  }));
})();
`,
    );
    const common = { strict: true, target: 'ES2022', lib: ['ES2023'], types: ['node'] };
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...common,
          module: 'node16',
          outDir: 'out',
          allowJs: true,
          checkJs: true,
          skipLibCheck: false,
        },
        include: ['*.ts', '*.cts', '*.cjs'],
      }),
    );
    writeFileSync(
      join(project, 'tsconfig.bundler.json'),
      JSON.stringify({
        compilerOptions: {
          ...common,
          module: 'preserve',
          moduleResolution: 'bundler',
          noEmit: true,
          skipLibCheck: true,
        },
        include: ['*.ts', '*.cts'],
      }),
    );
    const [node16, bundler] = await Promise.all([
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], project),
      run(process.execPath, [tsc, '-p', 'tsconfig.bundler.json'], project),
    ]);
    typecheck = { node16, bundler };
  }

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'sb-sdk-packages-'));
    certificate = selfSignedCertificate();
    const [, started] = await Promise.all([
      prepareProject(),
      startSystem({
        env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost', WEBHOOK_TEST_CA_FILE: certificate.certFile },
      }),
    ]);
    system = started;
    const admin = new AdminClient(system);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
  });

  afterAll(async () => {
    await system?.stop();
    certificate?.remove();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('packs each package with its build, both entries, types, README and MIT licence, and no spec or tsconfig', () => {
    const signing = tarball(tarballs.signing);
    const sdk = tarball(tarballs.sdk);
    for (const { files, manifest } of [signing, sdk]) {
      expect(files).toEqual(
        expect.arrayContaining([
          'package/package.json',
          'package/README.md',
          'package/LICENSE',
          'package/dist/index.js',
          'package/dist/index.d.ts',
          'package/dist/index.mjs',
          'package/dist/index.d.mts',
        ]),
      );
      expect(files.filter((file) => /\.(spec|int-spec)\.ts$|tsconfig|tsbuildinfo/.test(file))).toEqual([]);
      expect(manifest.private).toBeUndefined();
      expect(manifest.license).toBe('MIT');
      expect(manifest.engines).toEqual({ node: '>=20.19' });
      expect(manifest.exports['.']).toEqual({
        import: { types: './dist/index.d.mts', default: './dist/index.mjs' },
        require: { types: './dist/index.d.ts', default: './dist/index.js' },
      });
    }
    // A published-style range that the signing tarball beside it meets.
    expect(sdk.manifest.dependencies['@switchboard/signing']).toBe(`^${signing.manifest.version}`);
  });

  it("type-checks the READMEs' SDK examples, and import and require of both packages, under strict TypeScript", () => {
    // Every example sends its requests to the placeholders the test swaps for the test system.
    expect(examples.map((example) => example.source)).toEqual([
      'README.md',
      'libs/sdk/README.md',
      'libs/sdk/README.md',
      'libs/sdk/README.md',
    ]);
    for (const example of examples) {
      expect(example.code).toContain(BASE_URL_PLACEHOLDER);
      expect(example.code).toContain(API_KEY_PLACEHOLDER);
    }
    expect(typecheck.node16.stdout + typecheck.node16.stderr).toBe('');
    expect(typecheck.node16.code).toBe(0);
    expect(typecheck.bundler.stdout + typecheck.bundler.stderr).toBe('');
    expect(typecheck.bundler.code).toBe(0);
  });

  it('loads one copy of each package whether imported or required', async () => {
    const project = join(scratch, 'project');
    // `import` and `require` each get their own entry of each package (its exports map), as the ES module reports.
    const both = { import: 'dist/index.mjs', require: 'dist/index.js' };
    for (const [file, entries] of [
      ['out/both-esm.js', [both, both]],
      ['out/both-cjs.cjs', undefined],
    ] as const) {
      const { stdout } = ok(file, await run(process.execPath, [file], project));
      const { entries: resolved, ...loaded } = JSON.parse(stdout);
      expect(resolved).toEqual(entries);
      expect(loaded).toEqual({
        client: 'function',
        sameClass: true,
        sameVerify: true,
        headers: ['X-Switchboard-Timestamp', 'X-Switchboard-Signature'],
      });
    }
  });

  it("runs the READMEs' SDK examples against a running system", async () => {
    const project = join(scratch, 'project');
    const session = await ApiSession.create(system);
    const runExample = async (example: (typeof examples)[number]) => {
      const compiled = join(project, 'out', example.file.replace(/\.ts$/, '.js'));
      const code = readFileSync(compiled, 'utf8')
        .replaceAll(BASE_URL_PLACEHOLDER, JSON.stringify(system.publicUrl))
        .replaceAll(API_KEY_PLACEHOLDER, JSON.stringify(session.key));
      writeFileSync(compiled, code);
      const result = ok(`${example.source}'s example`, await run(process.execPath, [compiled], project));
      expect(result.stderr).toBe('');
      return result.stdout;
    };
    const callExamples = examples.filter((example) => example.code.includes("'/v1/calls'"));
    expect(callExamples).toHaveLength(1);
    for (const example of examples.filter((candidate) => !callExamples.includes(candidate))) {
      const stdout = await runExample(example);
      // README.md's provisions a number and lists the account's numbers; the others list them: each prints every id.
      const numbers = (await session.get('/numbers')).body.data as { id: string }[];
      expect(numbers.length).toBe(1);
      for (const number of numbers) expect(stdout).toContain(number.id);
    }
    // The calls example finds this week's unhappy call about a refund and counts the days.
    const [number] = (await session.get('/numbers')).body.data as { phone_number: string }[];
    const reported = await new AdminClient(system).request('POST', '/admin/provider/calls', {
      to: number.phone_number,
      caller: '+14155550199',
      duration_sec: 90,
      outcome: 'transferred',
      transcript: [{ role: 'caller', text: 'The pizza was cold and I want a refund.' }],
      analysis: { summary: 'Wants a refund for a cold pizza.', sentiment: 'negative', successful: false },
    });
    expect(reported.status).toBe(202);
    const stdout = await runExample(callExamples[0]);
    expect(stdout).toContain('unhappy calls about a refund: 1');
    expect(stdout).toContain(`${reported.body.call_sid} Wants a refund for a cold pizza.`);
    expect(stdout).toContain('<mark>refund</mark>');
    expect(stdout).toMatch(new RegExp(`^${new Date().toISOString().slice(0, 10)} 1 0$`, 'm'));
  });

  it("runs docs/webhooks.md's receiver as written: 204 to real and signed deliveries, 401 to a bad signature", async () => {
    const project = join(scratch, 'project');
    const session = await ApiSession.create(system);
    const created = await session.post('/numbers', { business_phone: '+14155550123' });
    expect(created.status).toBe(201);
    const { id, phone_number: phoneNumber, webhook_secret: secret } = created.body;

    writeFileSync(join(project, 'key.pem'), certificate.key);
    writeFileSync(join(project, 'cert.pem'), certificate.cert);
    writeFileSync(
      join(project, 'run-receiver.mjs'),
      `import { readFileSync } from 'node:fs';
import { startReceiver } from './out/receiver.js';

const server = await startReceiver({
  port: 0,
  key: readFileSync('key.pem'),
  cert: readFileSync('cert.pem'),
  secret: process.env.SWITCHBOARD_WEBHOOK_SECRET,
  onCallCompleted: async (event) => console.log(JSON.stringify({ handled: event.call.call_sid })),
});
console.log(JSON.stringify({ port: server.address().port }));
`,
    );
    const receiver: ChildProcess = spawn(process.execPath, ['run-receiver.mjs'], {
      cwd: project,
      env: { ...process.env, SWITCHBOARD_WEBHOOK_SECRET: secret },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines: Record<string, JsonBody>[] = [];
      createInterface({ input: receiver.stdout! }).on('line', (line) => lines.push(JSON.parse(line)));
      const port = await waitFor(() => lines.find((line) => line.port)?.port as number | undefined, 15_000);
      const handled = (callSid: string) =>
        waitFor(() => (lines.some((line) => line.handled === callSid) ? true : undefined), 30_000);

      const patched = await session.request('PATCH', `/numbers/${id}`, {
        webhook_url: `https://localhost:${port}/hooks`,
      });
      expect(patched.status).toBe(200);

      // A real delivery: the test event, signed by the dispatcher, answered 204 (not a call: nothing to handle).
      const test = await session.post(`/numbers/${id}/webhook-test`);
      expect(test.status).toBe(200);
      expect(test.body).toMatchObject({ delivered: true, status_code: 204, error: null });

      // A real call.completed, through calls-media and the dispatcher, handed to onCallCompleted.
      const call = await new AdminClient(system).request('POST', '/admin/provider/calls', {
        to: phoneNumber,
        caller: '+14155550199',
        duration_sec: 30,
        outcome: 'order',
        started_at: new Date().toISOString(),
      });
      expect(call.status).toBe(202);
      await handled(call.body.call_sid);

      // Bodies signed with the signing library: the right secret passes, a wrong one or a changed body does not.
      const body = (callSid: string) =>
        JSON.stringify({
          type: 'call.completed',
          number_id: id,
          occurred_at: new Date().toISOString(),
          call: {
            call_sid: callSid,
            caller: '+14155550199',
            outcome: 'order',
            duration_sec: 12,
            started_at: new Date().toISOString(),
            has_recording: false,
            has_transcript: false,
          },
        });
      const good = body('CAsignedbythetest');
      expect(await post(port, certificate.cert, good, signedHeaders(secret, good))).toEqual({ status: 204, body: '' });
      await handled('CAsignedbythetest');

      const forged = body('CAforged');
      expect(await post(port, certificate.cert, forged, signedHeaders('whsec_not_the_secret', forged))).toEqual({
        status: 401,
        body: 'signature_mismatch',
      });
      const changed = body('CAchanged');
      expect(
        await post(
          port,
          certificate.cert,
          changed.replace('"duration_sec":12', '"duration_sec":13'),
          signedHeaders(secret, changed),
        ),
      ).toEqual({ status: 401, body: 'signature_mismatch' });
      expect(await post(port, certificate.cert, good, {})).toEqual({ status: 401, body: 'missing_timestamp' });
      expect(lines.filter((line) => line.handled === 'CAforged' || line.handled === 'CAchanged')).toEqual([]);
    } finally {
      receiver.kill();
    }
  });
});
