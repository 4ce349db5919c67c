#!/usr/bin/env node
// npm run deploy:images [-- --tag TAG] [--node-image REF] [--apps a,b] [--context DIR] [--check]
//
// Builds the five service images from deploy/docker/Dockerfile, as it is, on this machine from nothing but the
// clone (ADR 0137):
//   1. installs dockerd, buildah and debootstrap with apt-get when absent, and starts dockerd when none answers,
//      leaving the host's network alone (images-host.mjs);
//   2. makes the base images the Dockerfile (NODE_IMAGE) and deploy/compose/*.yaml name when absent or made from
//      another recipe: no registry is reachable here, so they are made from Debian's and npm's packages under
//      the same tags (base-images/make.mjs);
//   3. builds switchboard/<app>:<TAG> (default `local`, or SWITCHBOARD_TAG: what compose runs) with
//      `buildah bud --layers`, whose cache is keyed by the content of each step's inputs: the stages all apps share
//      are built once, and an unchanged tree rebuilds nothing;
//   4. hands each image to dockerd unless dockerd already has that very image (same id), and prints each image's
//      size and what it adds on top of its base.
// --context builds from another copy of the repository (a git worktree of a release, or a copy with one more
// migration for an upgrade test) with that copy's Dockerfile; the default is this checkout, as `docker build .`.
// --check then runs images-check.mjs on the images: non-root, migration job, /readyz, size.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildahImage, composeBaseImages, makeBaseImages, recipeFor } from './base-images/make.mjs';
import { ensureDockerd, ensureTools, log, output, run } from './images-host.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const APPS = ['gateway', 'numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'];
export const DOCKERFILE = 'deploy/docker/Dockerfile';
/** The target each image may add on top of its base (issue 46). */
export const ADDED_MB_TARGET = 150;

/** The Dockerfile's default NODE_IMAGE (its `ARG NODE_IMAGE=...`). */
export function dockerfileNodeImage(text) {
  const match = text.match(/^ARG NODE_IMAGE=(\S+)/m);
  if (!match) throw new Error(`${DOCKERFILE} has no ARG NODE_IMAGE=<image> default`);
  return match[1];
}

export function imageName(app, tag) {
  return `switchboard/${app}:${tag}`;
}

/** dockerd's id of an image, or null when it has none by that name. */
function dockerImageId(reference) {
  return output('docker', ['image', 'inspect', '--format', '{{.Id}}', reference]);
}

function buildahImageId(reference) {
  const id = buildahImage(reference)?.FromImageID;
  return id ? `sha256:${id.replace(/^sha256:/, '')}` : null;
}

/**
 * The open-files limit for the build's RUN steps: buildah gives them 1024, which `npm ci` (thousands of packages,
 * the cache mount) overruns now and then with EMFILE; Docker's builder gives them dockerd's (about a million). A
 * container may not get more than the builder's own hard limit, so it gets that.
 */
export function buildOpenFilesLimit(limits = readFileSync('/proc/self/limits', 'utf8')) {
  const hard = limits.match(/^Max open files\s+\S+\s+(\S+)/m)?.[1];
  return hard === undefined || hard === 'unlimited' ? 1_048_576 : Number(hard);
}

function buildImage(app, { tag, nodeImage, context }) {
  const nofile = buildOpenFilesLimit();
  const local = `localhost/${imageName(app, tag)}`;
  const started = Date.now();
  run(
    'buildah',
    [
      'bud',
      '--layers',
      '--network',
      'host',
      '--format',
      'docker',
      '--pull-never',
      '--ulimit',
      `nofile=${nofile}:${nofile}`,
      '--build-arg',
      `APP=${app}`,
      '--build-arg',
      `NODE_IMAGE=${nodeImage}`,
      // The Dockerfile's own ignore file (BuildKit's lookup beside the Dockerfile), named so every builder uses it.
      '--ignorefile',
      join(context, 'deploy/docker/Dockerfile.dockerignore'),
      '-f',
      join(context, DOCKERFILE),
      '-t',
      local,
      context,
    ],
    { stdio: ['ignore', process.env.IMAGES_VERBOSE ? 'inherit' : 'ignore', 'inherit'] },
  );
  const built = Date.now();
  const id = buildahImageId(local);
  const pushed = dockerImageId(imageName(app, tag)) !== id;
  if (pushed) run('buildah', ['push', '--quiet', local, `docker-daemon:${imageName(app, tag)}`]);
  return { app, buildSeconds: (built - started) / 1000, pushed, id };
}

/** Size of an image and of its base in dockerd, in MB (10^6 bytes, as `docker images` shows them). */
export function imageSizes(app, tag, nodeImage) {
  const size = Number(output('docker', ['image', 'inspect', '--format', '{{.Size}}', imageName(app, tag)]));
  const base = Number(output('docker', ['image', 'inspect', '--format', '{{.Size}}', nodeImage]));
  return { sizeMb: size / 1e6, baseMb: base / 1e6, addedMb: (size - base) / 1e6 };
}

async function main() {
  const { values } = parseArgs({
    options: {
      tag: { type: 'string', default: process.env.SWITCHBOARD_TAG || 'local' },
      'node-image': { type: 'string' },
      apps: { type: 'string' },
      context: { type: 'string' },
      check: { type: 'boolean', default: false },
    },
  });
  const context = resolve(values.context ?? ROOT);
  const nodeImage = values['node-image'] ?? dockerfileNodeImage(readFileSync(join(context, DOCKERFILE), 'utf8'));
  const apps = values.apps ? values.apps.split(',') : APPS;
  const unknownApp = apps.find((app) => !APPS.includes(app));
  if (unknownApp) throw new Error(`--apps: ${unknownApp} is not one of ${APPS.join(', ')}`);
  if (!recipeFor(nodeImage))
    throw new Error(`NODE_IMAGE ${nodeImage} is not node:<x.y.z>-bookworm-slim: it cannot be made here`);
  const started = Date.now();

  ensureTools();
  await ensureDockerd();

  const bases = makeBaseImages([nodeImage, ...composeBaseImages(ROOT)]);
  const basesSeconds = (Date.now() - started) / 1000;
  log(
    `base images in ${basesSeconds.toFixed(0)} s: made ${bases.made.join(', ') || 'none'}; present ${bases.present.join(', ') || 'none'}`,
  );
  const nodeFailure = bases.failed.find(({ reference }) => reference === nodeImage);
  if (nodeFailure) throw new Error(`${nodeImage}: ${nodeFailure.reason}`);

  const results = [];
  for (const app of apps) {
    log(`${imageName(app, values.tag)}: buildah bud --layers`);
    const result = buildImage(app, { tag: values.tag, nodeImage, context });
    log(
      `${imageName(app, values.tag)}: ${result.buildSeconds.toFixed(0)} s, ${result.pushed ? 'handed to dockerd' : 'dockerd has it already'}`,
    );
    results.push(result);
  }

  console.log(`\n${'image'.padEnd(42)} ${'size MB'.padStart(8)} ${'base MB'.padStart(8)} ${'added MB'.padStart(9)}`);
  for (const { app } of results) {
    const { sizeMb, baseMb, addedMb } = imageSizes(app, values.tag, nodeImage);
    const over = addedMb >= ADDED_MB_TARGET ? `  over the ${ADDED_MB_TARGET} MB target` : '';
    console.log(
      `${imageName(app, values.tag).padEnd(42)} ${sizeMb.toFixed(1).padStart(8)} ${baseMb.toFixed(1).padStart(8)} ${addedMb.toFixed(1).padStart(9)}${over}`,
    );
  }
  console.log(`\nbuilt in ${((Date.now() - started) / 1000).toFixed(0)} s (base images ${basesSeconds.toFixed(0)} s)`);

  // Images compose names that no recipe makes: compose cannot start those services on this machine.
  const missing = bases.unknown.filter((reference) => dockerImageId(reference) === null);
  if (missing.length > 0) {
    log(`compose names images no recipe here makes, absent from dockerd: ${missing.join(', ')}`);
  }
  // A compose file may name what these machines cannot make (compose.yaml's postgres:17.6, which Debian bookworm
  // does not ship): say so; the run that needs it fails on its own with the image's name.
  for (const { reference, reason } of bases.failed) log(`not made here: ${reference} (${reason})`);

  if (values.check) {
    const check = spawnSync(process.execPath, [join(ROOT, 'tools/deploy/images-check.mjs')], {
      stdio: 'inherit',
      env: { ...process.env, SWITCHBOARD_TAG: values.tag, NODE_IMAGE: nodeImage },
    });
    process.exitCode = check.status ?? 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    log(error.message);
    process.exitCode = 1;
  });
}
