import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'deploy', 'docker', 'runtime-packages.mjs');

/** A production install as npm lays it out: hoisted packages, one nested, a workspace library as a link. */
function workspace(root: string) {
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const pkg = (dir: string, manifest: object) => write(`${dir}/package.json`, JSON.stringify(manifest));
  pkg('node_modules/pino', { name: 'pino', dependencies: { 'sonic-boom': '1' } });
  pkg('node_modules/sonic-boom', { name: 'sonic-boom' });
  pkg('node_modules/@prisma/client', { name: '@prisma/client', peerDependencies: { prisma: '7', typescript: '5' } });
  write('node_modules/@prisma/client/runtime/client.js', '');
  pkg('node_modules/pg', { name: 'pg', dependencies: { 'pg-types': '2' }, optionalDependencies: { 'pg-native': '3' } });
  pkg('node_modules/pg/node_modules/pg-types', { name: 'pg-types' });
  pkg('node_modules/pg-types', { name: 'pg-types', version: 'another, hoisted for someone else' });
  pkg('node_modules/kysely', { name: 'kysely' });
  pkg('node_modules/stripe', { name: 'stripe' });
  pkg('node_modules/@nats-io/transport-node', { name: '@nats-io/transport-node' });
  pkg('node_modules/swagger-ui-dist', { name: 'swagger-ui-dist' });
  pkg('libs/persistence', { name: '@switchboard/persistence' });
  write(
    'libs/persistence/dist/index.js',
    'const k = require("kysely"); const p = require("node:path"); require("fs");',
  );
  mkdirSync(join(root, 'node_modules/@switchboard'), { recursive: true });
  symlinkSync('../../libs/persistence', join(root, 'node_modules/@switchboard/persistence'));
  write(
    'out/main.bundle.js',
    [
      'const pino = require("pino");',
      'const { PrismaClient } = require("@prisma/client/runtime/client");',
      'async function db() { return import("pg"); }',
      '// a message, not a package: require("%s") and a relative one: require("./chunks/a.js")',
      'try { require("@nestjs/microservices"); } catch {}',
      // A require the bundler renamed (two modules of the bundle each had their own `require`).
      'if (!assets) assets = require$2("swagger-ui-dist/absolute-path.js")();',
      // Nest's ClientNats, as the bundler leaves it: a require made by createRequire, run when a client connects.
      'const nats = () => (0, module$1.createRequire)(require("url").pathToFileURL(__filename).href)("@nats-io/transport-node");',
    ].join('\n'),
  );
  write('out/migrate.cjs', 'require("@switchboard/persistence");');
}

function run(root: string) {
  return spawnSync(
    process.execPath,
    [
      SCRIPT,
      join(root, 'node_modules'),
      root,
      join(root, 'out/node_modules'),
      join(root, 'out/main.bundle.js'),
      join(root, 'out/migrate.cjs'),
    ],
    { encoding: 'utf8' },
  );
}

describe('runtime-packages.mjs: the packages an image loads, from the production install', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'runtime-packages-'));
    workspace(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('copies what the files load and what those packages need, at their places in the tree, and nothing else', () => {
    const result = run(root);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const out = join(root, 'out/node_modules');
    for (const dir of [
      'pino',
      'sonic-boom',
      '@prisma/client/runtime',
      'pg',
      'pg/node_modules/pg-types',
      'kysely',
      '@nats-io/transport-node',
      'swagger-ui-dist',
    ])
      expect(existsSync(join(out, dir))).toBe(true);
    // Bundled (stripe), not installed (peers, optional), or needed by no one loaded (the hoisted pg-types): left out.
    for (const dir of ['stripe', 'pg-types', 'prisma', 'pg-native', '@nestjs'])
      expect(existsSync(join(out, dir))).toBe(false);
    // The workspace library stays npm's link, and what its compiled files load (kysely) came along.
    expect(lstatSync(join(out, '@switchboard/persistence')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(out, '@switchboard/persistence'))).toBe('../../libs/persistence');
    expect(result.stdout).toMatch(/not installed: @nestjs\/microservices$/m);
  });

  it("leaves out what the lockfile has only for development, and keeps a native package's optional binary", () => {
    // As `npm ci --omit=dev` leaves it: the Prisma CLI (devOptional, a peer of @prisma/client) installed but not
    // for production; argon2's platform binary an optional dependency that production needs.
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('node_modules/prisma/package.json', JSON.stringify({ name: 'prisma' }));
    write(
      'node_modules/@node-rs/argon2/package.json',
      JSON.stringify({ name: '@node-rs/argon2', optionalDependencies: { '@node-rs/argon2-linux-x64-gnu': '2' } }),
    );
    write('node_modules/@node-rs/argon2-linux-x64-gnu/package.json', JSON.stringify({ name: 'argon2-linux' }));
    write('out/main.bundle.js', 'require("@prisma/client/runtime/client"); require("@node-rs/argon2");');
    write(
      'package-lock.json',
      JSON.stringify({
        packages: {
          'node_modules/prisma': { version: '7.10.0', devOptional: true },
          'node_modules/@node-rs/argon2': { version: '2.0.2' },
          'node_modules/@node-rs/argon2-linux-x64-gnu': { version: '2.0.2', optional: true },
        },
      }),
    );
    const result = run(root);
    expect(result.status).toBe(0);
    const out = join(root, 'out/node_modules');
    expect(existsSync(join(out, '@node-rs/argon2-linux-x64-gnu/package.json'))).toBe(true);
    expect(existsSync(join(out, '@prisma/client'))).toBe(true);
    expect(existsSync(join(out, 'prisma'))).toBe(false);
  });

  it('fails, naming it, when a package a loaded one declares is missing from the install', () => {
    rmSync(join(root, 'node_modules/sonic-boom'), { recursive: true });
    const result = run(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/sonic-boom \(for pino\)/);
  });
});
