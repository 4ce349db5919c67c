import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellCommands } from '../../tools/docs/shell-blocks.mjs';
import { startSystem, type RunningSystem } from './support';

jest.setTimeout(120_000);

const root = join(__dirname, '..', '..');
/** Where the README says the system answers; the booted system's own address replaces it. */
const README_PUBLIC_URL = 'http://127.0.0.1:3000';

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** An answer as the README shows it: JSON on one line, else the text; `...` in the README stands for anything. */
function shownAs(stdout: string): string {
  try {
    return JSON.stringify(JSON.parse(stdout));
  } catch {
    return stdout.trim();
  }
}
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patternOf = (shown: string) => new RegExp(`^${shown.split('...').map(escape).join('[\\s\\S]*')}$`);

/** Every string an answer holds, at any depth. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/**
 * Issue 48: the README's "First requests", run as written (its own words, read from README.md, so the doc cannot
 * drift from the system) against a booted system: `npm run -s admin -- ...` through npm, `curl` with curl. Each
 * placeholder such as `acct_...` or `CA...` is what an earlier answer held that starts the same way (a person copies
 * it from there), each command must succeed, and each answer the README shows under a command (`# {...}`, `...`
 * for what it shortens) must match the answer the system gave.
 */
describe("the README's first requests", () => {
  let system: RunningSystem;
  let workDir: string;

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing', 'calls-media'] });
    workDir = mkdtempSync(join(tmpdir(), 'sb-readme-'));
  });
  afterAll(async () => {
    await system?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('makes an account and keys, provisions a number, simulates a call and reads its transcript and recording', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const commands = shellCommands(readme, 'First requests');
    // What the section must show (issue 48), so a README that loses a step fails here rather than passing emptier.
    const lines = commands.map((command) => command.words.join(' ')).join('\n');
    for (const shown of [
      /^npm run -s admin -- accounts create /m,
      /^npm run -s admin -- keys create acct_\.\.\.$/m,
      /^curl .*\/v1\/numbers .*-d \{"business_phone":/m,
      /^npm run -s admin -- provider call .*--transcript \[\{"role":/m,
      /\/v1\/calls\/CA\.\.\.\/transcript/,
      /\/v1\/calls\/CA\.\.\.\/recording/,
      /^npm run -s admin -- keys create acct_\.\.\. --mode test$/m,
    ])
      expect(lines).toMatch(shown);

    // Values the README writes out are not placeholders for an answer's values (e.g. the business phone).
    const answered: string[] = [];
    const fill = (word: string) =>
      word.replace(/([\w+]*)\.\.\./g, (placeholder, prefix: string) => {
        const value = answered.findLast((seen) => seen.startsWith(prefix) && seen !== prefix && !lines.includes(seen));
        if (value === undefined) throw new Error(`no earlier answer holds a value for ${placeholder} in: ${word}`);
        return value;
      });
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !['DATA_DIR', 'ADMIN_PORT', 'npm_config_loglevel'].includes(name)),
    );

    for (const command of commands) {
      const words = command.words.map(fill);
      const execute = () => {
        if (words[0] === 'npm')
          return run('npm', words.slice(1), {
            cwd: root,
            env: { ...env, ADMIN_URL: system.adminUrl, ADMIN_TOKEN: system.adminToken },
          });
        if (words[0] === 'curl')
          return run(
            'curl',
            words.slice(1).map((word) => word.replace(README_PUBLIC_URL, system.publicUrl)),
            { cwd: workDir, env },
          );
        throw new Error(`the README's first requests run only npm and curl: ${command.line}`);
      };
      // What a call did reaches the reads a moment after the provider's report is taken: a read is asked again
      // (as a person would) until it shows what the README says, for up to 15 s.
      const reads = words[0] === 'curl' && !words.some((word) => ['-d', '--data', '-X'].includes(word));
      const deadline = Date.now() + 15_000;
      let result = await execute();
      while (
        reads &&
        command.answer !== undefined &&
        !patternOf(command.answer).test(shownAs(result.stdout)) &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        result = await execute();
      }
      expect({ line: command.line, code: result.code, stderr: result.stderr }).toEqual({
        line: command.line,
        code: 0,
        stderr: result.code === 0 ? '' : result.stdout,
      });
      if (command.answer !== undefined)
        expect({ line: command.line, answer: shownAs(result.stdout) }).toEqual({
          line: command.line,
          answer: expect.stringMatching(patternOf(command.answer)),
        });
      try {
        answered.push(...stringsOf(JSON.parse(result.stdout)));
      } catch {
        // Not JSON (e.g. what curl says of a file it wrote): nothing to copy from it.
      }
    }
  });
});
