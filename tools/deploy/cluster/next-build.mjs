// The "newer build" of the upgrade test: the same sources plus one expand-only migration per upgraded service (a
// nullable column), made in a temporary copy of the build context and built from deploy/docker/Dockerfile as it is,
// tagged `:next`. No build reads or writes the column, so old and new replicas serve side by side, and a rollback to
// the old image leaves it in place (docs/operations.md, "Deploy one service without the others").
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { say } from './cluster.mjs';

/** Per upgraded app: the table that gets the column. */
export const EXPAND_CHANGES = {
  'numbers-billing': { table: 'accounts' },
  lostfound: { table: 'found_items' },
};
export const NEXT_MIGRATION = '29990101000000_cluster_next_build_expand';
export const NEXT_COLUMN = 'cluster_next_build_note';

/**
 * A copy of `ref`'s tree (git archive: what is committed, nothing installed or built) with one migration more per
 * upgraded app. The schema (and so the code) is left as it is: what the old and new builds differ in is exactly the
 * migration, which is what the upgrade tests.
 */
export function nextBuildContext(sourceDir, ref) {
  const dir = mkdtempSync(join(tmpdir(), 'sbcluster-next-'));
  execFileSync('sh', ['-c', `git -C "${sourceDir}" archive --format=tar "${ref}" | tar -x -C "${dir}"`], {
    stdio: ['ignore', 2, 2],
  });
  for (const [app, { table }] of Object.entries(EXPAND_CHANGES)) {
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
 * Builds `switchboard/<app>:next` of every upgraded app from `context` with the images command (ADR 0137:
 * `tools/deploy/images.mjs --context`, the Dockerfile as it is, buildah's layer cache, handed to dockerd), from the
 * source tree `sourceDir`. Returns the seconds it took.
 */
export function buildNextImages(sourceDir, context) {
  const started = Date.now();
  const apps = Object.keys(EXPAND_CHANGES);
  say(`building ${apps.map((app) => `switchboard/${app}:next`).join(', ')} (the tree plus ${NEXT_MIGRATION})`);
  execFileSync(
    process.execPath,
    [join(sourceDir, 'tools', 'deploy', 'images.mjs'), '--tag', 'next', '--apps', apps.join(','), '--context', context],
    { cwd: sourceDir, stdio: ['ignore', 2, 2] },
  );
  return Math.round((Date.now() - started) / 1000);
}
