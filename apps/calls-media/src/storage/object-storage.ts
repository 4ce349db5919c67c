/**
 * Where recordings live: a port with two adapters, a directory under DATA_DIR (the default) and an S3-compatible
 * bucket (docs/adr/0121-calls-and-recordings.md). Use cases see only this interface.
 */
export interface StoredObject {
  key: string;
  size: number;
  /** Opaque content tag (the MD5 of the bytes for both adapters), without quotes. */
  etag: string;
}

export interface ObjectStorage {
  /** Stores the bytes under `key`, replacing what was there; readers never see a half-written object. */
  put(key: string, body: Uint8Array, contentType: string): Promise<StoredObject>;
  /** Up to `length` bytes from `offset` (fewer at the end; none past it). Throws ObjectNotFoundError. */
  read(key: string, offset: number, length: number): Promise<Uint8Array>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** For logs: where objects go (never a secret). */
  readonly description: string;
}

export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no stored object ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys are relative paths of safe characters: no `..`, no leading slash, nothing to escape in a URL. */
export function assertObjectKey(key: string): void {
  if (key.length > 512 || !KEY.test(key)) throw new Error(`invalid object key "${key}"`);
}
