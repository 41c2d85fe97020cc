// The in-memory file system the object store keeps its gitdirs on (memfs). It loads with the
// first emulator, not with the package: importing gitlab-emulator stays cheap.
import type { Volume } from 'memfs';
import type { FsClient } from 'isomorphic-git';

let memfs: typeof import('memfs') | undefined;

/** Loads memfs once; every emulator awaits it before its object store is made. */
export async function loadVolumes(): Promise<void> {
  memfs ??= await import('memfs');
}

/** A new, empty volume with its isomorphic-git file system. */
export function newVolume(): { volume: Volume; fs: FsClient } {
  if (!memfs) throw new Error('the git object store is not loaded: create emulators with createEmulator()');
  const volume = new memfs.Volume();
  return { volume, fs: memfs.createFsFromVolume(volume) as unknown as FsClient };
}
