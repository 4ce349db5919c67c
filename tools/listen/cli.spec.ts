import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = join(__dirname, 'cli.mjs');

/** A stand-in public API that refuses every key (401, the error envelope), noting the Authorization it was sent. */
async function refusingApi(): Promise<{ server: Server; url: string; authorizations: (string | undefined)[] }> {
  const authorizations: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'unauthorized', message: 'Invalid API key.' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, authorizations };
}

/** The command as a person runs it: only the variables given, none of the caller's SWITCHBOARD_* ones. */
function runListen(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SWITCHBOARD_')));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: tmpdir(), env: { ...clean, ...env } });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('npm run listen and its API key', () => {
  jest.setTimeout(20_000);
  let api: Awaited<ReturnType<typeof refusingApi>>;
  beforeEach(async () => {
    api = await refusingApi();
  });
  afterEach(() => new Promise((resolve) => api.server.close(resolve)));

  const target = () => ['--number', 'num_1', '--forward-to', 'http://127.0.0.1:9/hooks', '--base-url', api.url];

  it('takes the key from SWITCHBOARD_API_KEY, out of the process list, without a warning', async () => {
    const result = await runListen(target(), { SWITCHBOARD_API_KEY: 'sk_test_from_the_environment' });
    expect(result.code).toBe(1);
    expect(api.authorizations).toEqual(['Bearer sk_test_from_the_environment']);
    expect(result.stderr).not.toMatch(/warning/);
  });

  it('still takes --api-key, warning that ps shows it and naming the variable to use instead', async () => {
    const result = await runListen(['--api-key', 'sk_test_on_the_command_line', ...target()], {});
    expect(result.code).toBe(1);
    expect(api.authorizations).toEqual(['Bearer sk_test_on_the_command_line']);
    expect(result.stderr).toMatch(
      /^warning: --api-key shows the key to anyone who runs `ps` here; export SWITCHBOARD_API_KEY/,
    );
    expect(result.stderr).not.toContain('sk_test_on_the_command_line');
  });

  it('asks for the variable when no key is given, and shows it first in its usage', async () => {
    const result = await runListen(target(), {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: export SWITCHBOARD_API_KEY/);
    expect(result.stderr).toContain('usage: SWITCHBOARD_API_KEY=sk_... npm run -s listen -- --number num_...');
    expect(api.authorizations).toEqual([]);
  });
});
