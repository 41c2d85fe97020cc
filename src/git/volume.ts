// The in-memory file system the object store keeps loose objects on: memfs under Node (an
// isomorphic-git file system too). The browser build swaps in volume.browser.ts, which needs
// none of Node's modules.
import type { FsClient } from 'isomorphic-git';
import { Volume, createFsFromVolume } from 'memfs';

/** The synchronous calls the object store makes. */
export interface SyncVolume {
  existsSync(path: string): boolean;
  readFileSync(path: string, encoding?: 'utf8'): Uint8Array | string;
  writeFileSync(path: string, data: Uint8Array | string): void;
  mkdirSync(path: string, options?: { recursive?: boolean }): unknown;
  readdirSync(path: string): unknown[];
}

export function createVolume(): { volume: SyncVolume; fs: FsClient } {
  const volume = new Volume();
  return { volume: volume as unknown as SyncVolume, fs: createFsFromVolume(volume) as unknown as FsClient };
}
