import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingDependencies, missingDependenciesAt, staleDatabaseClients } from './install-missing.mjs';

const lockfile = {
  packages: {
    '': { name: 'switchboard' },
    'apps/gateway': { name: '@switchboard/gateway' },
    'node_modules/@switchboard/gateway': { resolved: 'apps/gateway', link: true },
    'node_modules/typescript': { version: '5.9.3', dev: true },
    'node_modules/jest/node_modules/ci-info': { version: '4.3.1' },
    'node_modules/@swc/core-darwin-arm64': { version: '1.16.22', optional: true },
  },
};
/** node_modules as npm leaves it after installing that lockfile on Linux (no darwin binary), with `changes` applied. */
const installed = (changes: Record<string, string | undefined> = {}) => {
  const versions: Record<string, string | undefined> = {
    'node_modules/@switchboard/gateway': '0.0.0',
    'node_modules/typescript': '5.9.3',
    'node_modules/jest/node_modules/ci-info': '4.3.1',
    ...changes,
  };
  return (path: string) => versions[path];
};

describe('what npm start and npm test install first', () => {
  it('installs on a fresh clone, where node_modules holds none of the locked packages', () => {
    expect(missingDependencies(lockfile, () => undefined)?.reason).toBe('node_modules holds no install yet');
  });

  it("installs nothing when node_modules holds every locked package at its version, other platforms' optional binaries aside", () => {
    expect(missingDependencies(lockfile, installed())).toBeUndefined();
  });

  it('installs when the lockfile names a version node_modules does not hold (a pull changed package-lock.json)', () => {
    expect(missingDependencies(lockfile, installed({ 'node_modules/typescript': '5.9.2' }))).toEqual({
      reason: 'node_modules lacks typescript@5.9.3 at the locked version',
      packages: ['typescript@5.9.3'],
    });
  });

  it('installs when a package is gone from disk, nested ones and workspace links included', () => {
    const gone = installed({
      'node_modules/jest/node_modules/ci-info': undefined,
      'node_modules/@switchboard/gateway': undefined,
    });
    expect(missingDependencies(lockfile, gone)?.packages).toEqual(['@switchboard/gateway', 'ci-info@4.3.1']);
  });

  it('names three missing packages and counts the rest', () => {
    const many = {
      packages: Object.fromEntries(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => [`node_modules/${name}`, { version: '1.0.0' }]),
      ),
    };
    expect(missingDependencies(many, (path: string) => (path === 'node_modules/f' ? '1.0.0' : undefined))?.reason).toBe(
      'node_modules lacks a@1.0.0, b@1.0.0, c@1.0.0 and 2 more at the locked version',
    );
  });

  describe('on disk', () => {
    let root: string;
    const schema = (app: string) => join(root, 'apps', app, 'prisma', 'schema.prisma');
    const client = (app: string) => join(root, 'apps', app, 'src', 'generated', 'prisma', 'client.ts');
    const put = (file: string, contents: unknown = '') => {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, typeof contents === 'string' ? contents : JSON.stringify(contents));
    };
    const write = (file: string, secondsAgo: number) => {
      put(file);
      const when = new Date(Date.now() - secondsAgo * 1000);
      utimesSync(file, when, when);
    };

    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'sb-install-missing-'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it("reads the installed versions from the packages' own package.json, not from npm's record of the last install", () => {
      put(join(root, 'package-lock.json'), {
        packages: { '': {}, 'node_modules/a': { version: '1.0.0' }, 'node_modules/b': { version: '2.0.0' } },
      });
      // npm's record says both are there (as where another work tree's install rewrote a shared one)...
      put(join(root, 'node_modules', '.package-lock.json'), {
        packages: { 'node_modules/a': { version: '1.0.0' }, 'node_modules/b': { version: '2.0.0' } },
      });
      put(join(root, 'node_modules', 'a', 'package.json'), { name: 'a', version: '1.0.0' });
      // ...but b is not on disk.
      expect(missingDependenciesAt(root)?.packages).toEqual(['b@2.0.0']);
      put(join(root, 'node_modules', 'b', 'package.json'), { name: 'b', version: '2.0.0' });
      expect(missingDependenciesAt(root)).toBeUndefined();
    });

    it('generates the clients an app lacks or that are older than its schema, and only for apps with a schema', () => {
      write(schema('gateway'), 60);
      write(client('gateway'), 30); // generated after the schema: current
      write(schema('lostfound'), 60); // never generated
      write(schema('calls-media'), 10);
      write(client('calls-media'), 30); // the schema changed since (a pull)
      mkdirSync(join(root, 'apps', 'no-database', 'src'), { recursive: true });
      expect(staleDatabaseClients(root)).toEqual(['calls-media', 'lostfound']);
    });
  });
});
