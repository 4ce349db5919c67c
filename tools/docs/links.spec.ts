import { commentLines, commentPaths, markdownFiles, markdownLinks, missingTargets } from './links.mjs';

/**
 * Paths named in files other engineers are rewriting in this round (issue 45), each to be fixed by its owner:
 * left out here so that this spec holds the rest of the repository meanwhile. Empty this list once they are merged.
 */
const BEING_REWRITTEN = new Set([
  // The deploy checks' new spec names the node-flags file the bypasses' removal deletes.
  'tools/deploy/deploy-rules.spec.ts -> deploy/service-node-flags.mjs',
]);

describe('links in the docs and paths in code comments', () => {
  it('point at files that exist', () => {
    const missing = missingTargets()
      .map(({ file, target }: { file: string; target: string }) => `${file} -> ${target}`)
      .filter((entry: string) => !BEING_REWRITTEN.has(entry));
    expect(missing).toEqual([]);
  });

  it('are read from docs/**, the root README and each project README', () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/performance.md', 'docs/adr/README.md']));
    expect(files).toEqual(expect.arrayContaining(['apps/gateway/README.md']));
  });
});

describe('the relative links of a Markdown text', () => {
  it('are the inline and reference links, without their anchors, decoded', () => {
    const text = [
      'See [ADR 0134](adr/0134-no-bypasses-performance-by-guards.md#decision) and [ops](operations.md "Operations").',
      '[perf]: ./performance.md',
      'A [space](docs/a%20b.md) and an image ![shot](console/page.png).',
    ].join('\n');
    expect(markdownLinks(text)).toEqual([
      'adr/0134-no-bypasses-performance-by-guards.md',
      'operations.md',
      'docs/a b.md',
      'console/page.png',
      './performance.md',
    ]);
  });

  it('leave out web addresses, anchors in the page, code blocks and code spans', () => {
    const text = [
      '[site](https://example.com/x.md) [mail](mailto:a@b.c) [up](#method) [proto](//cdn.example/x)',
      '`[not](a-link.md)`',
      '```md',
      '[nor](this.md)',
      '```',
    ].join('\n');
    expect(markdownLinks(text)).toEqual([]);
  });
});

describe('the paths a code comment names', () => {
  it('reads line comments, trailing comments and block comments, not strings or URLs', () => {
    const source = [
      "const url = 'http://example.com/tools/x.mjs'; // see tools/perf/lib/load.mjs",
      '/**',
      ' * The floor (tools/perf/floors/api-floor.mjs), docs/adr/0134-no-bypasses-performance-by-guards.md.',
      ' */',
      "import { x } from './apps/y.ts';",
    ].join('\n');
    const paths = commentLines(source).flatMap((line: string) => commentPaths(line));
    expect(paths).toEqual([
      'tools/perf/lib/load.mjs',
      'tools/perf/floors/api-floor.mjs',
      'docs/adr/0134-no-bypasses-performance-by-guards.md',
    ]);
  });

  it('takes only repository paths with a file name: no placeholders, globs, folders or packages', () => {
    const text =
      '// apps/<app>/src/main.ts, apps/*/prisma/schema.prisma, libs/messaging/src/, @switchboard/x/y.js, ' +
      'docs/adr/0134-…md, my-apps/a.ts, apps/gateway/src/bootstrap.ts.';
    expect(commentPaths(text)).toEqual(['apps/gateway/src/bootstrap.ts']);
  });
});
