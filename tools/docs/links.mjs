// Where the docs and the code's comments point inside the repository, and which of those places are not there:
// every relative link of the Markdown docs (docs/**/*.md and each README.md), and every repository path a code
// comment names as a file (`tools/perf/lib/load.mjs`, `docs/adr/0134-no-bypasses-performance-by-guards.md`). Run by
// tools/docs/links.spec.ts; `node tools/docs/links.mjs` prints what is missing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'generated', 'results', 'coverage', '.git', '.nx', '.data']);
const CODE = /\.(ts|tsx|mjs|cjs|js)$/;
/** The top folders a comment's path starts with: what is a path in the repository, not a URL or a package. */
const TOP = ['apps', 'libs', 'tools', 'docs', 'deploy', 'test'];
const FILE_PATH = new RegExp(
  `(?<![\\w./@-])((?:${TOP.join('|')})/[\\w.@/-]*\\.(?:ts|tsx|mjs|cjs|js|json|md|ya?ml|prisma|sql|sh|conf|toml|html|css))(?![\\w/-])`,
  'g',
);

/** Every file under `dir` (relative to the root) whose name matches `pattern`, build outputs and packages left out. */
export function filesUnder(dir, pattern) {
  const found = [];
  const walk = (relativeDir) => {
    const absolute = join(root, relativeDir);
    if (!existsSync(absolute)) return;
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      if (SKIP_DIRS.has(entry.name)) continue;
      const path = join(relativeDir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (pattern.test(entry.name)) found.push(path);
    }
  };
  walk(dir);
  return found.sort();
}

/** The Markdown files whose links are checked: docs/**, the root README and each project's README. */
export function markdownFiles() {
  return [
    'README.md',
    ...filesUnder('docs', /\.md$/),
    ...['apps', 'libs', 'deploy', 'tools'].flatMap((dir) => filesUnder(dir, /^README\.md$/)),
  ].filter((path) => existsSync(join(root, path)));
}

/** The relative link targets of a Markdown text (inline `[x](target)` and `[x]: target`), code blocks and spans left out. */
export function markdownLinks(text) {
  const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]),
  ];
  return targets
    .filter((target) => !/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target))
    .map((target) => decodeURIComponent(target.replace(/[?#].*$/, '')))
    .filter(Boolean);
}

/** The text of a source file's comments (line and block comments), one entry per line. */
export function commentLines(source) {
  const lines = [];
  let inBlock = false;
  for (const line of source.split('\n')) {
    if (inBlock) {
      lines.push(line);
      if (line.includes('*/')) inBlock = false;
      continue;
    }
    const block = line.indexOf('/*');
    const slashes = line.search(/(^|[^:'"`\\])\/\//);
    if (slashes >= 0 && (block < 0 || slashes < block)) lines.push(line.slice(slashes));
    else if (block >= 0) {
      lines.push(line.slice(block));
      if (!line.slice(block + 2).includes('*/')) inBlock = true;
    }
  }
  return lines;
}

/** The repository paths a comment text names as files. */
export function commentPaths(text) {
  return [...text.matchAll(FILE_PATH)].map((m) => m[1].replace(/\.$/, ''));
}

/** Every place that points at something missing: [{ file, line, target }]. */
export function missingTargets() {
  const missing = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const target of markdownLinks(text)) {
      const path = target.startsWith('/') ? join(root, target) : join(root, dirname(file), target);
      if (!existsSync(path)) missing.push({ file, target: relative(root, path) });
    }
  }
  for (const file of TOP.filter((dir) => dir !== 'docs').flatMap((dir) => filesUnder(dir, CODE))) {
    const source = readFileSync(join(root, file), 'utf8');
    for (const comment of commentLines(source))
      for (const target of commentPaths(comment))
        if (!existsSync(join(root, target)) && !isBuildOutput(target)) missing.push({ file, target });
  }
  return dedupe(missing);
}

/** What a build writes (bundles, compiled output) is named by comments but not committed. */
function isBuildOutput(path) {
  return /(^|\/)(dist|generated|results)\//.test(path) || /\.bundle\.js$/.test(path);
}

function dedupe(list) {
  const seen = new Set();
  return list.filter((item) => {
    const key = `${item.file} -> ${item.target}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = missingTargets();
  for (const { file, target } of missing) console.log(`${file}: ${target}`);
  console.log(`${missing.length} missing`);
  process.exitCode = missing.length ? 1 : 0;
}
