import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
// Nx's rule (tags, cycles, paths into other projects) and ours for deep imports into a lib (eslint.config.mjs).
const BOUNDARY_RULES = ['@nx/enforce-module-boundaries', 'no-restricted-imports'];

/**
 * ESLint's API on stdin's code as the would-be file, with the project's real config (in a child: its config loader
 * needs ESM). The file is not on disk, so there is no type information: typescript-eslint's `disableTypeChecked`
 * turns off every rule that needs it, and only the syntactic rules, the boundary rules among them, apply.
 */
const LINT_STDIN = `
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { readFileSync } from 'node:fs';
const eslint = new ESLint({ overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }] });
const [report] = await eslint.lintText(readFileSync(0, 'utf8'), { filePath: process.argv[1] });
process.stdout.write(JSON.stringify(report.messages));
`;

/** Lints a would-be file with the project's real ESLint config; the boundary rules' messages. */
async function problems(filePath: string, code: string): Promise<string[]> {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', LINT_STDIN, filePath], {
    cwd: root,
    input: code,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`eslint failed: ${result.stderr}`);
  const messages = JSON.parse(result.stdout) as { ruleId: string | null; message: string }[];
  return messages.filter((m) => m.ruleId !== null && BOUNDARY_RULES.includes(m.ruleId)).map((m) => m.message);
}

jest.setTimeout(60_000);

// Nx's rule reads the project graph Nx caches (.nx/workspace-data) and is skipped, with a warning, without one: on a
// fresh clone nothing has computed it yet.
beforeAll(() => {
  const graph = spawnSync(join(root, 'node_modules', '.bin', 'nx'), ['show', 'projects'], {
    cwd: root,
    env: { ...process.env, NX_DAEMON: 'false' },
    encoding: 'utf8',
  });
  if (graph.status !== 0) throw new Error(`nx could not compute the project graph: ${graph.stderr}`);
});

describe('module boundaries', () => {
  it('fail an app that imports another app', async () => {
    expect(
      await problems('apps/gateway/src/probe.ts', "import { x } from '@switchboard/numbers-billing';\nexport { x };\n"),
    ).toHaveLength(1);
  });

  it('fail a lib that imports an app, by name or by path', async () => {
    expect(
      await problems('libs/messaging/src/probe.ts', "import { x } from '@switchboard/gateway';\nexport { x };\n"),
    ).toHaveLength(1);
    expect(
      await problems(
        'libs/messaging/src/probe.ts',
        "import { x } from '../../../apps/gateway/src/bootstrap';\nexport { x };\n",
      ),
    ).toHaveLength(1);
  });

  it('fail the contracts lib when it imports a util lib', async () => {
    expect(
      await problems('libs/contracts/src/probe.ts', "import { x } from '@switchboard/messaging';\nexport { x };\n"),
    ).toHaveLength(1);
  });

  it('fail a deep import into a lib', async () => {
    expect(
      await problems(
        'apps/gateway/src/probe.ts',
        "import { x } from '@switchboard/contracts/src/errors';\nexport { x };\n",
      ),
    ).toHaveLength(1);
  });

  it('allow an app to import contracts and util libs through their entry points', async () => {
    expect(
      await problems(
        'apps/gateway/src/probe.ts',
        "import { a } from '@switchboard/contracts';\nimport { b } from '@switchboard/messaging';\nexport { a, b };\n",
      ),
    ).toEqual([]);
  });
});
