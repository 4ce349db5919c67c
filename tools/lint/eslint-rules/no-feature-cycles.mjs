// Inside every app the folders under src/ (its features: numbers/, billing/, auth/, ...) import each other in one
// direction only (docs/architecture.md): a feature that needs something from one that imports it declares a port or
// an after-commit hook that the module binds, and a rule two features share gets a small folder of its own. This
// reports an import into another feature folder when that folder already reaches back, and names the way back.
//
// A cycle spans files and ESLint sees one at a time: the rest of the app's folder graph comes from its other files on
// disk, their imports read by TypeScript's own scanner (`ts.preProcessFile`) and kept until the file changes. Type-only
// imports count (a folder that needs another's types depends on it). Tests may reach across folders for fixtures, and
// the layering is about the service's own code: spec files are left out of the graph, and eslint.config.mjs does not
// apply the rule to them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The app's src/ folder, from the path of a file in it. */
const APP_SRC = /^(.*[\\/]apps[\\/][^\\/]+[\\/]src)[\\/]/;
const SOURCE_FILE = /\.tsx?$/;
const TEST_FILE = /\.(int-)?spec\.tsx?$/;

/** file → { mtimeMs, specifiers }: each source file's relative imports, read again only once the file changes. */
const importsByFile = new Map();

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name) ? [path] : [];
  });
}

const isRelative = (specifier) => specifier === '.' || specifier === '..' || /^\.{1,2}\//.test(specifier);

function relativeImports(file) {
  const { mtimeMs } = statSync(file);
  const cached = importsByFile.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.specifiers;
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const specifiers = importedFiles.map(({ fileName }) => fileName).filter(isRelative);
  importsByFile.set(file, { mtimeMs, specifiers });
  return specifiers;
}

/** The feature folder of a file under src/; undefined for a file at the root of src/ (module, main): no feature. */
function featureOfFile(srcDir, file) {
  const parts = relative(srcDir, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** The feature folder an import from `file` lands in: a file in one, or the folder itself (its index). */
function featureOfImport(srcDir, file, specifier) {
  const target = resolve(file, '..', specifier);
  const parts = relative(srcDir, target).split(sep);
  if (parts[0] === '..' || parts[0] === '') return undefined;
  if (parts.length > 1) return parts[0];
  try {
    return statSync(target).isDirectory() ? parts[0] : undefined;
  } catch {
    return undefined; // a file at the root of src/, imported without its extension
  }
}

/**
 * Feature → the features its files import, each edge with one file (from src/) that makes it. The file being linted
 * is in here as it is on disk, which does not matter: its edges all leave its own folder, where a way back ends.
 */
function featureEdges(srcDir) {
  const edges = new Map();
  for (const file of sourceFiles(srcDir)) {
    const from = featureOfFile(srcDir, file);
    if (from === undefined) continue;
    for (const specifier of relativeImports(file)) {
      const to = featureOfImport(srcDir, file, specifier);
      if (to === undefined || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, relative(srcDir, file).split(sep).join('/'));
    }
  }
  return edges;
}

/** The shortest way from `start` to `goal` through the edges, as `a -> b (file)` steps; undefined if there is none. */
function wayBack(edges, start, goal) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    if (at === goal) {
      const steps = [];
      for (let to = goal; cameFrom.get(to) !== undefined; to = cameFrom.get(to)) {
        const from = cameFrom.get(to);
        steps.unshift(`${from} -> ${to} (${edges.get(from).get(to)})`);
      }
      return steps;
    }
    for (const next of edges.get(at)?.keys() ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: "Forbid imports between an app's feature folders (under src/) that close a cycle" },
    schema: [],
    messages: {
      cycle:
        "'{{from}}' imports '{{to}}', which imports '{{from}}' back: {{way}}. Folders under src/ import each other in " +
        "one direction only: have '{{from}}' declare a port (or an after-commit hook) that '{{to}}' implements and " +
        'the module binds, or move what both need into a folder of its own (docs/architecture.md).',
    },
  },
  create(context) {
    const file = context.filename;
    const srcDir = APP_SRC.exec(file)?.[1];
    const from = srcDir && featureOfFile(srcDir, file);
    if (from === undefined) return {};
    let edges; // the rest of the app, read at the first import into another feature
    const check = (node, source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !isRelative(source.value)) return;
      const to = featureOfImport(srcDir, file, source.value);
      if (to === undefined || to === from) return;
      edges ??= featureEdges(srcDir);
      const way = wayBack(edges, to, from);
      if (way !== undefined) context.report({ node, messageId: 'cycle', data: { from, to, way: way.join(', ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument.type === 'TSLiteralType' ? node.argument.literal : undefined),
      TSExternalModuleReference: (node) => check(node, node.expression),
    };
  },
};
