// fflate (zlib, gzip and zip in JavaScript) costs ~15 ms of CPU to load, which neither the
// package's import nor an emulator that never builds an archive should pay. Its users call it
// synchronously (an artifact archive is built inside a change): in Node it is loaded at its
// first use, through require; where there is no require (a page), with the first emulator
// (createEmulator awaits `loadFflate()`).
import type * as Fflate from 'fflate';

let loaded: typeof Fflate | undefined;

function nodeRequire(): ((id: string) => unknown) | undefined {
  const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const mod = builtin?.('node:module') as typeof import('node:module') | undefined;
  const base: string | undefined = import.meta.url ?? (typeof __filename === 'string' ? __filename : undefined); // a CommonJS build has no import.meta
  return mod?.createRequire && base ? mod.createRequire(base) : undefined;
}

export async function loadFflate(): Promise<void> {
  if (!loaded && !nodeRequire()) loaded = await import('fflate');
}

/** fflate, loaded now if it was not. */
export function fflate(): typeof Fflate {
  loaded ??= nodeRequire()?.('fflate') as typeof Fflate | undefined;
  if (!loaded) throw new Error('fflate is used before it was loaded: create emulators with createEmulator()');
  return loaded;
}
