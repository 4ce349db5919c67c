import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findNatsServer } from '@switchboard/testing';

// deploy/compose/make-env.mjs makes the passwords nats-server reads through variables of its configuration
// (`password: $GATEWAY_NATS_PASSWORD`), where it lexes each value: CI's cluster run of 2026-11-28 failed because a
// hex password that began `0842e4...` made every node exit with a parse error.
const root = join(__dirname, '..', '..');

function passwordsOfMakeEnv(): string[] {
  const env = spawnSync(process.execPath, [join(root, 'deploy', 'compose', 'make-env.mjs')], { encoding: 'utf8' });
  return [...env.stdout.matchAll(/^[A-Z_]+_NATS_PASSWORD=(.*)$/gm)].map(([, value]) => value);
}

/** Whether nats-server accepts a configuration that reads `password` from the variable P. */
function natsAccepts(dir: string, password: string): { ok: boolean; output: string } {
  const config = join(dir, 'nats.conf');
  writeFileSync(config, 'authorization: { users: [ { user: "a", password: $P } ] }\n');
  const test = spawnSync(findNatsServer(), ['-c', config, '-t'], { encoding: 'utf8', env: { P: password } });
  return { ok: test.status === 0, output: `${test.stdout}${test.stderr}` };
}

describe('NATS passwords made by make-env.mjs', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'sb-nats-passwords-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is what nats-server refuses, for the hex the file made before', () => {
    expect(natsAccepts(dir, '0842e4e221e61cc97820e9ffab16e82e8f2e5e8128eaabd7')).toMatchObject({ ok: false });
  });

  it('are read by nats-server as strings, whatever the random bytes (200 of them)', () => {
    const passwords = Array.from({ length: 40 }, passwordsOfMakeEnv).flat();
    expect(passwords).toHaveLength(200);
    const refused = passwords.filter((password) => !natsAccepts(dir, password).ok);
    expect(refused).toEqual([]);
  });
});
