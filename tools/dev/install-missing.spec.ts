import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingDependencies, staleDatabaseClients } from './install-missing.mjs';

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
const everyFolder = () => true;
const installedAsLocked = { packages: Object.fromEntries(Object.entries(lockfile.packages).filter(([path]) => path.startsWith('node_modules/') && !path.includes('darwin'))) };

describe('what npm start and npm test install first', () => {
  it('installs on a fresh clone, where npm has recorded no install', () => {
    expect(missingDependencies(lockfile, undefined, () => false)).toEqual({ reason: 'node_modules holds no install yet', packages: [] });
  });

  it('installs nothing when node_modules holds every locked package at its version, other platforms\' optional binaries aside', () => {
    expect(missingDependencies(lockfile, installedAsLocked, everyFolder)).toBeUndefined();
  });

  it('installs when the lockfile names a version node_modules does not hold (a pull changed package-lock.json)', () => {
    const pulled = { packages: { ...lockfile.packages, 'node_modules/typescript': { version: '5.9.4', dev: true } } };
    expect(missingDependencies(pulled, installedAsLocked, everyFolder)).toEqual({ reason: 'node_modules lacks typescript@5.9.4 at the locked version', packages: ['typescript@5.9.4'] });
  });

  it('installs when a package npm recorded is gone from disk, nested ones and workspace links included', () => {
    const present = (path: string) => path !== 'node_modules/jest/node_modules/ci-info' && path !== 'node_modules/@switchboard/gateway';
    expect(missingDependencies(lockfile, installedAsLocked, present)?.packages).toEqual(['@switchboard/gateway', 'ci-info@4.3.1']);
  });

  it('names three missing packages and counts the rest', () => {
    const many = { packages: Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((name) => [`node_modules/${name}`, { version: '1.0.0' }])) };
    expect(missingDependencies(many, { packages: {} }, everyFolder)?.reason).toBe('node_modules lacks a@1.0.0, b@1.0.0, c@1.0.0 and 2 more at the locked version');
  });

  describe('database clients', () => {
    let root: string;
    const schema = (app: string) => join(root, 'apps', app, 'prisma', 'schema.prisma');
    const client = (app: string) => join(root, 'apps', app, 'src', 'generated', 'prisma', 'client.ts');
    const write = (file: string, secondsAgo: number) => {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, '');
      const when = new Date(Date.now() - secondsAgo * 1000);
      utimesSync(file, when, when);
    };

    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'sb-install-missing-'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

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
