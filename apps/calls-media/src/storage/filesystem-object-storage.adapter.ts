import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { assertObjectKey, ObjectNotFoundError, type ObjectStorage, type StoredObject } from './object-storage';

/** Objects as files below one directory (default `DATA_DIR/calls-media/recordings`). */
export class FilesystemObjectStorage implements ObjectStorage {
  readonly description: string;

  constructor(private readonly root: string) {
    this.description = `directory ${root}`;
  }

  /** The content type is kept by the caller (in the database); files carry none. */
  async put(key: string, body: Uint8Array, _contentType?: string): Promise<StoredObject> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
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
