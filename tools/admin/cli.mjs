#!/usr/bin/env node
// The operator CLI: every route of the operator API (shared contract) from the command line.
//   npm run admin -- accounts create --name "Acme" --balance 5000
//   npm run admin -- keys create acct_... [--allow 203.0.113.0/24,2001:db8::/32]
// It finds a system started by `npm start` in this checkout through the run file that npm start writes
// (DATA_DIR/run.json, tools/dev/run-file.mjs): its operator API's address and the file holding the development
// token. So a second terminal needs nothing exported. ADMIN_URL (or ADMIN_PORT) and ADMIN_TOKEN override it, for a
// system started some other way. Answers are printed as JSON; a 4xx/5xx exits 1, a usage or connection error 2.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_DATA_DIR, isRunning, readRunFile, runFilePath } from '../dev/run-file.mjs';
import { COMMANDS, parseCommandLine, requestOf, usageOf, UsageError } from './commands.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const DEFAULT_ADMIN_URL = 'http://127.0.0.1:3001';

function help(env) {
  console.log(
    'usage: npm run admin -- <command> [arguments]   (npm run admin -- <command> --help: that command alone)\n',
  );
  for (const command of COMMANDS) {
    console.log(`  ${usageOf(command)}`);
    for (const note of command.notes ?? []) console.log(`      ${note}`);
  }
  // The run file this very command reads: with DATA_DIR exported, that one's, not the default.
  const where = env.DATA_DIR
    ? `${runFilePath(env, root)}\n(DATA_DIR/run.json, DATA_DIR as exported here). Environment, all optional:`
    : `${runFilePath(env, root)}\n(DATA_DIR/run.json; export DATA_DIR if the system runs with another one). Environment, all optional:`;
  console.log(`
Where the system is: read from the run file that npm start writes, ${where}
  ADMIN_URL    operator API address (or ADMIN_PORT: http://127.0.0.1:ADMIN_PORT); default: the run file's, else ${DEFAULT_ADMIN_URL}
  ADMIN_TOKEN  operator token; default: the file the run file names, else DATA_DIR/admin-token
  DATA_DIR     where npm start keeps its data and run file; default ${DEFAULT_DATA_DIR} in this checkout`);
}

/** Where the operator API is and which token to send, with where each came from (for the error messages). */
function findSystem(env) {
  const runFile = runFilePath(env, root);
  const recorded = readRunFile(runFile);
  const running = recorded && isRunning(recorded.pid) ? recorded : undefined;
  const hint = [
    `Start the system with \`npm start\` in ${root}: it writes ${runFile}, where this command finds it.`,
    'If it runs with another DATA_DIR, export that DATA_DIR here; if it runs some other way, export ADMIN_URL',
    `(its operator API, e.g. ${DEFAULT_ADMIN_URL}) and ADMIN_TOKEN.`,
  ].join('\n');
  let url = env.ADMIN_URL || (env.ADMIN_PORT ? `http://127.0.0.1:${env.ADMIN_PORT}` : undefined);
  let urlFrom = env.ADMIN_URL ? 'ADMIN_URL' : 'ADMIN_PORT';
  if (!url) [url, urlFrom] = running ? [running.admin_url, runFile] : [DEFAULT_ADMIN_URL, 'the default'];
  const stale =
    recorded && !running
      ? `${runFile} names npm start pid ${recorded.pid}, which no longer runs. `
      : recorded
        ? ''
        : `There is no ${runFile}. `;

  if (env.ADMIN_TOKEN) return { url, urlFrom, token: env.ADMIN_TOKEN, tokenFrom: 'ADMIN_TOKEN', hint: stale + hint };
  if (running && running.admin_token_file === null) {
    throw new UsageError(
      `no ADMIN_TOKEN: the system at ${running.admin_url} was started with ADMIN_TOKEN set, so it keeps no token file.\nExport the same ADMIN_TOKEN here.`,
    );
  }
  const tokenFile = running?.admin_token_file ?? join(resolve(root, env.DATA_DIR || DEFAULT_DATA_DIR), 'admin-token');
  if (!existsSync(tokenFile))
    throw new UsageError(`no operator token: ADMIN_TOKEN is not set and there is no ${tokenFile}. ${stale}\n${hint}`);
  return { url, urlFrom, token: readFileSync(tokenFile, 'utf8').trim(), tokenFrom: tokenFile, hint: stale + hint };
}

async function main() {
  const argv = process.argv.slice(2);
  const { command, help: wanted, positionals, values } = parseCommandLine(argv);
  if (wanted && command) {
    console.log(`usage: npm run admin -- ${usageOf(command)}`);
    for (const note of command.notes ?? []) console.log(`  ${note}`);
    return 0;
  }
  if (!command) {
    if (!wanted)
      console.error(argv.length ? `error: unknown command: ${argv.slice(0, 2).join(' ')}` : 'error: no command');
    help(process.env);
    return wanted ? 0 : 2;
  }
  const { method, path, body } = requestOf(command, positionals, values);
  const system = findSystem(process.env);
  let response;
  try {
    response = await fetch(`${system.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${system.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new UsageError(
      `nothing answers at ${system.url} (from ${system.urlFrom}): ${error?.cause?.message ?? error.message}.\n${system.hint}`,
    );
  }
  const text = await response.text();
  try {
    console.log(JSON.stringify(JSON.parse(text), null, 2));
  } catch {
    console.log(text);
  }
  if (response.status === 401)
    console.error(
      `error: the operator API at ${system.url} refused the token from ${system.tokenFrom}; export the ADMIN_TOKEN it runs with.`,
    );
  return response.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(
      error instanceof UsageError || error?.code?.startsWith?.('ERR_PARSE_ARGS')
        ? `error: ${error.message}`
        : `error: ${error?.cause?.message ?? error.message}`,
    );
    process.exit(2);
  },
);
