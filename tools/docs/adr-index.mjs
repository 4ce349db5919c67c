#!/usr/bin/env node
// Writes docs/adr/README.md, the index of decisions, from the ADR files themselves: each file's title line and its
// `Status: <status> · <YYYY-MM-DD>` line. `--check` writes nothing and exits 1 when the index is stale or an ADR lacks
// a status line (tools/docs/adr-index.spec.ts runs the same check inside `npm test`).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// ADR_DIR in the environment points it elsewhere (its test uses a scratch folder).
export const ADR_DIR = process.env.ADR_DIR || resolve(import.meta.dirname, '..', '..', 'docs', 'adr');
const STATUS_LINE = /^Status: (accepted|proposed|superseded by \d{4}|deprecated) · (\d{4}-\d{2}-\d{2})$/m;

/** Every ADR with its number, title, status and date, or the problems that keep it out of the index. */
export function readDecisions(dir = ADR_DIR) {
  const decisions = [];
  const problems = [];
  for (const file of readdirSync(dir)
    .filter((name) => /^\d{4}-.+\.md$/.test(name))
    .sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    const title = /^# (\d{4})\. (.+)$/m.exec(text);
    const status = STATUS_LINE.exec(text);
    if (!title || title[1] !== file.slice(0, 4))
      problems.push(`${file}: the first line must be "# ${file.slice(0, 4)}. <title>"`);
    else if (!status) problems.push(`${file}: no "Status: accepted · YYYY-MM-DD" line under the title`);
    else decisions.push({ file, number: title[1], title: title[2], status: status[1], date: status[2] });
  }
  return { decisions, problems };
}

export function renderIndex(decisions) {
  return [
    '# Architecture decision records',
    '',
    'The decisions that bind the code today: what the spec left open or the architecture needed. Each page says its',
    'context, the decision and what follows from it. When a decision changes, its page is rewritten to say what holds',
    'now; related decisions share one page. Read [docs/architecture.md](../architecture.md) first. This index is written',
    'by `node tools/docs/adr-index.mjs` (`npm test` fails when it is stale).',
    '',
    '| ADR | decision | status | date |',
    '|---|---|---|---|',
    ...decisions.map(
      (d) => `| [${d.number}](${d.file}) | ${d.title.replace(/\|/g, '\\|')} | ${d.status} | ${d.date} |`,
    ),
    '',
  ].join('\n');
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  const { decisions, problems } = readDecisions();
  const index = renderIndex(decisions);
  const path = join(ADR_DIR, 'README.md');
  const current = (() => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  })();
  if (process.argv.includes('--check')) {
    for (const problem of problems) console.error(problem);
    if (current !== index) console.error(`${path} is stale: run node tools/docs/adr-index.mjs`);
    process.exit(problems.length || current !== index ? 1 : 0);
  }
  writeFileSync(path, index);
  for (const problem of problems) console.error(problem);
  console.log(`${path}: ${decisions.length} decisions`);
  process.exit(problems.length ? 1 : 0);
}
