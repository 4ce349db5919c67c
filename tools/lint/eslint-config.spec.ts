import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// eslint.config.mjs says which rule applies where: module boundaries (Nx's rule over the projects' tags, and ours for
// deep imports into a lib) and Switchboard's own rules (tools/lint/eslint-rules, each with its RuleTester spec) with
// their allow-lists. This lints would-be files with that config, to prove each part fails what it should and where.
const root = join(__dirname, '..', '..');

interface Probe {
  filePath: string;
  code: string;
}

/**
 * ESLint's API on each probe's code as the would-be file, with the project's real config (in a child: its config loader
 * needs ESM). The files are not on disk, so there is no type information: typescript-eslint's `disableTypeChecked`
 * turns off every rule that needs it, and only the syntactic rules, the ones checked here among them, apply.
 */
const LINT_PROBES = `
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { readFileSync } from 'node:fs';
const eslint = new ESLint({ overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }] });
const reports = [];
for (const { filePath, code } of JSON.parse(readFileSync(0, 'utf8'))) {
  const [report] = await eslint.lintText(code, { filePath });
  reports.push(report.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}
process.stdout.write(JSON.stringify(reports));
`;

const RULES = [
  '@nx/enforce-module-boundaries',
  'no-restricted-imports',
  'switchboard/no-prisma-raw-sql',
  'switchboard/no-all-columns',
  'switchboard/no-direct-transaction',
  'switchboard/no-prisma-in-services',
  'switchboard/no-feature-cycles',
];

const probes: Probe[] = [];
let results: string[][] = [];

/** Registers a probe, linted with the others in one child before the tests; the rules (of RULES) that it breaks. */
function lint(filePath: string, code: string): () => string[] {
  const index = probes.push({ filePath, code }) - 1;
  return () => results[index];
}

beforeAll(() => {
  // Nx's rule reads the project graph Nx caches (.nx/workspace-data) and is skipped, with a warning, without one: on a
  // fresh clone nothing has computed it yet.
  const graph = spawnSync(join(root, 'node_modules', '.bin', 'nx'), ['show', 'projects'], {
    cwd: root,
    env: { ...process.env, NX_DAEMON: 'false' },
    encoding: 'utf8',
  });
  if (graph.status !== 0) throw new Error(`nx could not compute the project graph: ${graph.stderr}`);
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', LINT_PROBES], {
    cwd: root,
    input: JSON.stringify(probes),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  const reports = JSON.parse(run.stdout) as { ruleId: string | null; message: string }[][];
  results = reports.map((messages) =>
    messages.flatMap(({ ruleId }) => (ruleId !== null && RULES.includes(ruleId) ? [ruleId] : [])),
  );
}, 120_000);

const boundaries = '@nx/enforce-module-boundaries';
const reexport = (specifier: string) => `import { x } from '${specifier}';\nexport { x };\n`;

describe('module boundaries', () => {
  const appImportsApp = lint('apps/gateway/src/probe.ts', reexport('@switchboard/numbers-billing'));
  const libImportsApp = lint('libs/messaging/src/probe.ts', reexport('@switchboard/gateway'));
  const libImportsAppByPath = lint('libs/messaging/src/probe.ts', reexport('../../../apps/gateway/src/bootstrap'));
  const appImportsTesting = lint('apps/gateway/src/probe.ts', reexport('@switchboard/testing'));
  const deepImport = lint('apps/gateway/src/probe.ts', reexport('@switchboard/contracts/src/errors'));
  const appImportsLibs = lint(
    'apps/gateway/src/probe.ts',
    "import { a } from '@switchboard/contracts';\nimport { b } from '@switchboard/messaging';\nexport { a, b };\n",
  );
  const consoleImportsServerLib = lint('apps/console/src/probe.tsx', reexport('@switchboard/messaging'));
  const consoleImportsContracts = lint('apps/console/src/probe.tsx', reexport('@switchboard/contracts'));
  const contractsImportsLib = lint('libs/contracts/src/probe.ts', reexport('@switchboard/messaging'));
  const persistenceImportsLib = lint('libs/persistence/src/probe.ts', reexport('@switchboard/observability'));
  const sdkImportsPrivateLib = lint('libs/sdk/src/probe.ts', reexport('@switchboard/contracts'));
  const sdkImportsSigning = lint('libs/sdk/src/probe.ts', reexport('@switchboard/signing'));
  const providersImportsRuntime = lint('libs/providers/src/probe.ts', reexport('@switchboard/service-runtime'));
  const messagingImportsRuntime = lint('libs/messaging/src/probe.ts', reexport('@switchboard/service-runtime'));
  const testingImportsMessaging = lint('libs/testing/src/probe.ts', reexport('@switchboard/messaging'));
  const testingImportsSdk = lint('libs/testing/src/probe.ts', reexport('@switchboard/sdk'));
  const testingImportsItself = lint('libs/testing/src/probe.ts', reexport('./services.ts'));

  it('fail an app that imports another app, or libs/testing', () => {
    expect(appImportsApp()).toEqual([boundaries]);
    expect(appImportsTesting()).toEqual([boundaries]);
  });

  it('fail a lib that imports an app, by name or by path', () => {
    expect(libImportsApp()).toEqual([boundaries]);
    expect(libImportsAppByPath()).toEqual([boundaries]);
  });

  it('fail a deep import into a lib', () => {
    expect(deepImport()).toEqual(['no-restricted-imports']);
  });

  it('allow an app to import libs through their entry points', () => {
    expect(appImportsLibs()).toEqual([]);
  });

  it('keep the console (a browser bundle) to the contracts', () => {
    expect(consoleImportsServerLib()).toEqual([boundaries]);
    expect(consoleImportsContracts()).toEqual([]);
  });

  it('fail a lib that imports a lib docs/architecture.md does not list for it', () => {
    expect(contractsImportsLib()).toEqual([boundaries]);
    expect(persistenceImportsLib()).toEqual([boundaries]);
    expect(sdkImportsPrivateLib()).toEqual([boundaries]);
    expect(messagingImportsRuntime()).toEqual([boundaries]);
    expect(testingImportsSdk()).toEqual([boundaries]);
  });

  it('allow a lib the libs it lists, and its own files', () => {
    expect(sdkImportsSigning()).toEqual([]);
    expect(providersImportsRuntime()).toEqual([]);
    expect(testingImportsMessaging()).toEqual([]);
    expect(testingImportsItself()).toEqual([]);
  });
});

describe("Switchboard's rules", () => {
  const raw = 'export const run = (tx: Tx) => tx.$queryRaw`SELECT 1`;\n';
  const rawInApp = lint('apps/gateway/src/probe.ts', raw);
  const rawInLib = lint('libs/messaging/src/probe.ts', raw);
  const rawInKyselyDriver = lint('libs/persistence/src/kysely.ts', raw);
  const rawInTest = lint('apps/gateway/src/probe.int-spec.ts', raw);
  const allColumns = lint('apps/lostfound/src/probe.ts', "export const q = 'SELECT * FROM claims';\n");
  const transaction = 'export const run = (p: P) => p.$transaction(async (tx) => work(tx));\n';
  const transactionInApp = lint('apps/numbers-billing/src/probe.ts', transaction);
  const transactionInRun = lint('libs/persistence/src/transactions.ts', transaction);
  const transactionInTest = lint('libs/persistence/src/probe.int-spec.ts', transaction);
  const prismaService = "import { LostfoundPrisma } from '../prisma/lostfound-prisma';\nexport { LostfoundPrisma };\n";
  const prismaInService = lint('apps/lostfound/src/claims/probe.service.ts', prismaService);
  const prismaInRepository = lint('apps/lostfound/src/claims/probe.repository.ts', prismaService);

  it("apply to the apps' and libs' sources, not their tests", () => {
    expect(rawInApp()).toEqual(['switchboard/no-prisma-raw-sql']);
    expect(rawInLib()).toEqual(['switchboard/no-prisma-raw-sql']);
    expect(rawInTest()).toEqual([]);
    expect(allColumns()).toEqual(['switchboard/no-all-columns']);
    expect(transactionInApp()).toEqual(['switchboard/no-direct-transaction']);
    expect(transactionInTest()).toEqual([]);
  });

  it("let libs/persistence's Kysely driver use the raw path, and Transactions.run call $transaction", () => {
    expect(rawInKyselyDriver()).toEqual([]);
    expect(transactionInRun()).toEqual([]);
  });

  it('keep the Prisma client out of services, not out of repositories', () => {
    expect(prismaInService()).toEqual(['switchboard/no-prisma-in-services']);
    expect(prismaInRepository()).toEqual([]);
  });
});
