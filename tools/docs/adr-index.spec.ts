import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = join(__dirname, 'adr-index.mjs');
const adrDir = join(__dirname, '..', '..', 'docs', 'adr');

function runIndex(dir: string, ...args: string[]) {
  return spawnSync(process.execPath, [script, ...args], { env: { ...process.env, ADR_DIR: dir }, encoding: 'utf8' });
}

describe('ADR index (docs/adr/README.md)', () => {
  it('lists every ADR with its status and date, as the files say', () => {
    const check = runIndex(adrDir, '--check');
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  describe('in a scratch copy', () => {
    let scratch: string;
    beforeEach(() => {
      scratch = mkdtempSync(join(tmpdir(), 'adr-index-'));
      cpSync(adrDir, scratch, { recursive: true });
    });
    afterEach(() => rmSync(scratch, { recursive: true, force: true }));

    it('reports an ADR without a status line, naming the file', () => {
      writeFileSync(join(scratch, '9999-no-status.md'), '# 9999. A decision without a status\n\n## Context\n');
      const check = runIndex(scratch, '--check');
      expect(check.status).toBe(1);
      expect(check.stderr).toContain('9999-no-status.md: no "Status: accepted · YYYY-MM-DD" line');
    });

    it('reports a stale index and rewrites it with the new decision', () => {
      writeFileSync(join(scratch, '9998-new.md'), '# 9998. A new decision\n\nStatus: proposed · 2026-11-23\n');
      expect(runIndex(scratch, '--check').stderr).toContain('is stale');
      expect(runIndex(scratch).status).toBe(0);
      expect(readFileSync(join(scratch, 'README.md'), 'utf8')).toContain(
        '| [9998](9998-new.md) | A new decision | proposed | 2026-11-23 |',
      );
      expect(runIndex(scratch, '--check').status).toBe(0);
    });
  });
});
