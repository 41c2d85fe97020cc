// fflate (zlib, gzip and zip in JavaScript), loaded with the first emulator rather than with the
// package: importing it costs ~15 ms of CPU that `import 'gitlab-emulator'` should not pay.
// Its users call it synchronously (an artifact archive is built inside a change), so every
// emulator awaits `loadFflate()` before it is made (createEmulator).
import type * as Fflate from 'fflate';

let loaded: typeof Fflate | undefined;

export async function loadFflate(): Promise<void> {
  loaded ??= await import('fflate');
}

/** fflate, once an emulator loaded it. */
export function fflate(): typeof Fflate {
  if (!loaded) throw new Error('fflate is used before it was loaded: create emulators with createEmulator()');
  return loaded;
}
