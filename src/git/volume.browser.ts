// The browser build's volume (scripts/browser-swaps.ts swaps it in for volume.ts): the same Maps
// as in Node (map-volume.ts), without importing the Node module's types at run time.
import type { FsClient } from 'isomorphic-git';
import type { SyncVolume } from './volume.js';
import { MapVolume, promiseFs } from './map-volume.js';

/** Nothing to load in a browser. */
export async function loadVolumes(): Promise<void> {}

/** A new, empty volume with its isomorphic-git file system. */
export function newVolume(): { volume: SyncVolume; fs: FsClient } {
  const volume = new MapVolume();
  return { volume, fs: promiseFs(volume) };
}
