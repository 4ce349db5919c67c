import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleStaleness } from './console-build.mjs';

describe('when npm start and npm test rebuild the console', () => {
  let root: string;
  const app = () => join(root, 'apps', 'console');
  const touch = (path: string, secondsAgo: number) => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(path, when, when);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'console-build-'));
    mkdirSync(join(app(), 'src', 'pages'), { recursive: true });
    mkdirSync(join(app(), 'dist'), { recursive: true });
    writeFileSync(join(app(), 'index.html'), '<!doctype html>');
    writeFileSync(join(app(), 'src', 'pages', 'Keys.tsx'), 'export {}');
    for (const path of [
      join(app(), 'index.html'),
      join(app(), 'src', 'pages', 'Keys.tsx'),
      join(app(), 'src', 'pages'),
      join(app(), 'src'),
    ])
      touch(path, 60);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when dist has no index.html (a fresh clone)', () => {
    expect(consoleStaleness(root)).toBe('apps/console/dist is not built yet');
  });

  it('builds nothing when dist is newer than every source', () => {
    writeFileSync(join(app(), 'dist', 'index.html'), 'built');
    expect(consoleStaleness(root)).toBeUndefined();
  });

  it('rebuilds when a source file deep in src changed after the build', () => {
    writeFileSync(join(app(), 'dist', 'index.html'), 'built');
    touch(join(app(), 'dist', 'index.html'), 30);
    expect(consoleStaleness(root)).toBeUndefined();
    writeFileSync(join(app(), 'src', 'pages', 'Keys.tsx'), 'export const changed = true;');
    expect(consoleStaleness(root)).toBe('apps/console has changed since its last build');
  });
});
