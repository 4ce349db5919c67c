import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemObjectStorage } from '../src/storage/filesystem-object-storage.adapter';
import { ObjectNotFoundError } from '../src/storage/object-storage';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-objects-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('FilesystemObjectStorage', () => {
  it('stores an object as a file, reads any range of it back and deletes it', async () => {
    const storage = new FilesystemObjectStorage(root);
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    expect(await storage.put('CA1.mp3', bytes, 'audio/mpeg')).toEqual({
      key: 'CA1.mp3',
      size: 1000,
      etag: createHash('md5').update(bytes).digest('hex'),
    });
    expect(await readdir(root)).toEqual(['CA1.mp3']);
    expect(Buffer.from(await storage.read('CA1.mp3', 10, 20)).equals(bytes.subarray(10, 30))).toBe(true);
    expect(Buffer.from(await storage.read('CA1.mp3', 990, 100)).equals(bytes.subarray(990))).toBe(true);
    expect((await storage.read('CA1.mp3', 1000, 100)).byteLength).toBe(0);
    await storage.delete('CA1.mp3');
    await storage.delete('CA1.mp3');
    await expect(storage.read('CA1.mp3', 0, 1)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('replaces an object whole, leaving no temporary file behind', async () => {
    const storage = new FilesystemObjectStorage(root);
    await storage.put('a/b.mp3', Buffer.from('first'), 'audio/mpeg');
    await storage.put('a/b.mp3', Buffer.from('second'), 'audio/mpeg');
    expect(Buffer.from(await storage.read('a/b.mp3', 0, 100)).toString()).toBe('second');
    expect(await readdir(join(root, 'a'))).toEqual(['b.mp3']);
  });

  it('refuses keys that would leave its directory', async () => {
    const storage = new FilesystemObjectStorage(root);
    await expect(storage.put('../escape.mp3', Buffer.from('x'), 'audio/mpeg')).rejects.toThrow(/invalid object key/);
    await expect(storage.read('/etc/passwd', 0, 10)).rejects.toThrow(/invalid object key/);
  });

  it('makes its directory and the folders of keys with mode 0700 and files with 0600, whatever the umask', async () => {
    const recordings = join(root, 'calls-media', 'recordings');
    const storage = new FilesystemObjectStorage(recordings);
    expect((await stat(recordings)).mode & 0o777).toBe(0o700);
    await storage.put('a/CA1.mp3', Buffer.from('x'), 'audio/mpeg');
    expect((await stat(join(recordings, 'a'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(recordings, 'a', 'CA1.mp3'))).mode & 0o777).toBe(0o600);
  });

  it('tightens a directory an earlier version left 0755 (call ids listable by anyone) to 0700 at start', async () => {
    const recordings = join(root, 'recordings');
    await mkdir(recordings);
    await chmod(recordings, 0o755);
    new FilesystemObjectStorage(recordings);
    expect((await stat(recordings)).mode & 0o777).toBe(0o700);
  });
});
