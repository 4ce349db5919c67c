// The "newer build" of the upgrade test: the same sources plus one expand-only change per upgraded service, made in
// a temporary copy of the build context and built from deploy/docker/Dockerfile as it is, tagged `:next`. The
// change is what a real release of that kind carries: a nullable column in its Prisma schema and the migration
// that adds it. Old code never reads or writes it, so old and new replicas can serve side by side, and a rollback
// to the old image leaves the column in place (docs/operations.md, "Upgrade one service").
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { say } from './cluster.mjs';

/** Per upgraded app: the model and table that get the column. */
export const EXPAND_CHANGES = {
  'numbers-billing': { model: 'Account', table: 'accounts' },
  lostfound: { model: 'FoundItem', table: 'found_items' },
};
export const NEXT_MIGRATION = '29990101000000_cluster_next_build_expand';
export const NEXT_COLUMN = 'cluster_next_build_note';

/** A copy of `ref`'s tree (git archive: what is committed, nothing installed or built) with the expand changes. */
export function nextBuildContext(sourceDir, ref) {
  const dir = mkdtempSync(join(tmpdir(), 'sbcluster-next-'));
  execFileSync('sh', ['-c', `git -C "${sourceDir}" archive --format=tar "${ref}" | tar -x -C "${dir}"`], { stdio: ['ignore', 2, 2] });
  for (const [app, { model, table }] of Object.entries(EXPAND_CHANGES)) {
    const schemaFile = join(dir, 'apps', app, 'prisma', 'schema.prisma');
    const schema = readFileSync(schemaFile, 'utf8');
    const opening = new RegExp(`^model ${model} \\{\\n`, 'm');
    if (!opening.test(schema)) throw new Error(`${schemaFile}: no model ${model}`);
    writeFileSync(
      schemaFile,
      schema.replace(opening, (line) => `${line}  clusterNextBuildNote String? @map("${NEXT_COLUMN}")\n`),
    );
    const migration = join(dir, 'apps', app, 'prisma', 'migrations', NEXT_MIGRATION);
    mkdirSync(migration, { recursive: true });
    writeFileSync(
      join(migration, 'migration.sql'),
      `-- Expand only: a nullable column the previous build neither reads nor writes.\nALTER TABLE "${table}" ADD COLUMN "${NEXT_COLUMN}" TEXT;\n`,
    );
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Builds `switchboard/<app>:next` for every upgraded app from `context` with buildah, as the images command builds
 * the others (containers.md: Debian's docker has no BuildKit, buildah builds the Dockerfile's RUN --mount steps),
 * and hands each to dockerd. Layers are cached, so the second app reuses the first one's build stage; the docker
 * format keeps the Dockerfile's HEALTHCHECK (the OCI format has no place for it).
 */
export function buildNextImages(context) {
  for (const app of Object.keys(EXPAND_CHANGES)) {
    const image = `switchboard/${app}:next`;
    const started = Date.now();
    say(`building ${image} (the current tree plus ${NEXT_MIGRATION})`);
    execFileSync(
      'buildah',
      ['bud', '--layers', '--format', 'docker', '--network', 'host', '-f', 'deploy/docker/Dockerfile', '--build-arg', `APP=${app}`,
        '--label', `org.switchboard.cluster-next=${NEXT_MIGRATION}`, '-t', image, '.'],
      { cwd: context, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    execFileSync('buildah', ['push', `localhost/${image}`, `docker-daemon:${image}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    say(`built ${image} in ${Math.round((Date.now() - started) / 1000)} s`);
  }
}
