import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { assertObjectKey, ObjectNotFoundError, type ObjectStorage, type StoredObject } from './object-storage';

/**
 * Objects as files below one directory (default `DATA_DIR/calls-media/recordings`), readable by this user alone: the
 * directory is made with mode 0700 (and tightened to it at start when it was looser, as before: its listing is the
 * call ids), the files 0600.
 */
export class FilesystemObjectStorage implements ObjectStorage {
  readonly description: string;

  constructor(private readonly root: string) {
    this.description = `directory ${root}`;
    mkdirSync(root, { recursive: true, mode: 0o700 });
    if (statSync(root).mode & 0o077) tighten(root);
  }

  /** The content type is kept by the caller (in the database); files carry none. */
  async put(key: string, body: Uint8Array, _contentType?: string): Promise<StoredObject> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Write beside, flush, then rename: a reader sees the old object or the new one, never a part.
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(body);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { key, size: body.byteLength, etag: createHash('md5').update(body).digest('hex') };
  }

  async read(key: string, offset: number, length: number): Promise<Uint8Array> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFoundError(key);
      throw error;
    }
    try {
      const buffer = Buffer.alloc(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    assertObjectKey(key);
    return path.join(this.root, ...key.split('/'));
  }
}

/** 0700, unless the directory is another user's (a volume mounted there as its operator chose): left as it is. */
function tighten(directory: string): void {
  try {
    chmodSync(directory, 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}
