// The in-memory file system the object store keeps its gitdirs on (memfs). It loads with the
// first emulator, not with the package: importing gitlab-emulator stays cheap. The browser
// build swaps in volume.browser.ts (memfs needs Node's built-in modules).
import type { FsClient } from 'isomorphic-git';

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

let memfs: typeof import('memfs') | undefined;

/** Loads memfs once; every emulator awaits it before its object store is made. */
export async function loadVolumes(): Promise<void> {
  if (memfs) return;
  const m: typeof import('memfs') & { default?: typeof import('memfs') } = await import('memfs');
  memfs = typeof m.Volume === 'function' ? m : m.default!; // bundled as CommonJS, its exports are the default's
}

/** A new, empty volume with its isomorphic-git file system. */
export function newVolume(): { volume: SyncVolume; fs: FsClient } {
  if (!memfs) throw new Error('the git object store is not loaded: create emulators with createEmulator()');
  const volume = new memfs.Volume();
  return { volume, fs: memfs.createFsFromVolume(volume) as unknown as FsClient };
}
