// Where rendered bytes are kept. Files under DATA_DIR by default; the interface is small so an object
// store can implement it later without the callers changing.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { config } from "../config";
import { processSingleton } from "../core/process-singleton";

export interface BlobStore {
  get(key: string): Promise<Buffer | null>;
  put(key: string, bytes: Uint8Array): Promise<void>;
  delete(keys: string[]): Promise<void>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

export class FileBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  #path(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error("invalid storage key");
    return path.join(this.root, key);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.#path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  /** Atomic: readers see the old file or the whole new one, never a partial write. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.#path(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, target);
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((k) => rm(this.#path(k), { force: true })));
  }
}

export function previewStore(): BlobStore {
  return processSingleton<BlobStore>("storage.previews", () => new FileBlobStore(path.resolve(config().dataDir, "previews")));
}
