// The in-memory file system the object store keeps its gitdirs on: Maps (map-volume.ts), in
// Node as in a page. The browser build swaps in volume.browser.ts, which is the same.
import type { FsClient } from 'isomorphic-git';
import { MapVolume, promiseFs } from './map-volume.js';

/** The synchronous calls the object store makes of its volume. */
export interface SyncVolume {
  existsSync(path: string): boolean;
  readFileSync(path: string, encoding?: 'utf8'): unknown;
  writeFileSync(path: string, data: Uint8Array | string): void;
  mkdirSync(path: string, options?: { recursive?: boolean }): unknown;
  readdirSync(path: string): unknown[];
  /** Removes a directory and what it holds (a released storage); a volume without it keeps them. */
  rmSync?(path: string, options: { recursive: true; force: true }): void;
}

/** Nothing to load (memfs was, before): kept for the emulator's start, which awaits it. */
export async function loadVolumes(): Promise<void> {}

/** A new, empty volume with its isomorphic-git file system. */
export function newVolume(): { volume: SyncVolume; fs: FsClient } {
  const volume = new MapVolume();
  return { volume, fs: promiseFs(volume) };
}
