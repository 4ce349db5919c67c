import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// The project promises Node 20.19 (package.json `engines`). npm warns (EBADENGINE) for every installed package whose
// own `engines` leaves that out, and the lockfile records each package's `engines`: this reads them, so a dependency
// update that brings in a Node 22-only release fails here, not on someone's Node 20 install. The overrides that hold
// transitive packages to their Node 20 releases, and why: docs/dependencies.md.
const root = join(__dirname, '..', '..');
const semver = createRequire(__filename)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

describe('the Node versions package.json promises', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockedPackage>;
  };
  const oldest = semver.minVersion(manifest.engines.node)!.version;

  it('start at Node 20.19', () => {
    expect(oldest).toBe('20.19.0');
  });

  it('are accepted by every package the lockfile installs, so npm install warns of no engine', () => {
    const refusing = Object.entries(lock.packages)
      .map(([path, locked]) => ({
        name: path.replace(/^.*node_modules\//, ''),
        version: locked.version,
        node: Array.isArray(locked.engines) ? undefined : locked.engines?.node,
      }))
      .filter(({ node }) => node !== undefined && !semver.satisfies(oldest, node))
      .map(({ name, version, node }) => `${name}@${version} wants node ${node}`);
    expect(refusing).toEqual([]);
  });
});
