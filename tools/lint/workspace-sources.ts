import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A source file, by its path from the workspace root (forward slashes), and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

const root = join(__dirname, '..', '..');

const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !TEST_FILE.test(entry.name) ? [path] : [];
  });
}

/** Every non-test `.ts` source under `apps/*\/src` and `libs/*\/src`, generated code left out. */
export function workspaceSources(): SourceFile[] {
  return ['apps', 'libs'].flatMap((kind) =>
    readdirSync(join(root, kind), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        const src = join(root, kind, entry.name, 'src');
        try {
          return sourceFiles(src);
        } catch {
          return []; // a project without src/ (e.g. the console's own layout)
        }
      })
      .map((file) => ({ path: relative(root, file).split('\\').join('/'), text: readFileSync(file, 'utf8') })),
  );
}

/** `file:line: text` of every line `pattern` matches (a non-global pattern: `test` keeps no state between lines). */
export function linesMatching(pattern: RegExp, files: SourceFile[]): string[] {
  return files.flatMap(({ path, text }) =>
    text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
}
