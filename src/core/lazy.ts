// A library too costly for the package's import, loaded at its first use instead: in Node
// synchronously, through `require`, where the code that uses it runs (its users call it inside
// a change, synchronously); where there is no `require` (a page), with the first emulator
// (`createEmulator` awaits `loadLazyModules()`). Each library is declared once, with its id
// for `require` and an `import()` of the same id for a bundler to see.

let requireOnce: ((id: string) => unknown) | null | undefined;

function nodeRequire(): ((id: string) => unknown) | null {
  if (requireOnce !== undefined) return requireOnce;
  const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const mod = builtin?.('node:module') as typeof import('node:module') | undefined;
  const base: string | undefined = import.meta.url ?? (typeof __filename === 'string' ? __filename : undefined); // a CommonJS build has no import.meta
  return (requireOnce = mod?.createRequire && base ? mod.createRequire(base) : null);
}

const loaders: (() => Promise<void>)[] = [];
/** Libraries a build brought with it (`provideModule`), by id. */
const provided = new Map<string, unknown>();

/** A getter of the library `id`: loads it at its first call in Node; elsewhere `loadLazyModules()` must have run. */
export function lazyModule<T>(id: string, load: () => Promise<T>): () => T {
  let loaded: T | undefined;
  loaders.push(async () => {
    if (loaded === undefined && !provided.has(id) && nodeRequire() === null) loaded = await load();
  });
  return () => {
    if (loaded !== undefined) return loaded;
    if (provided.has(id)) return (loaded = provided.get(id) as T);
    const require = nodeRequire();
    if (require === null) throw new Error(`${id} is used before it was loaded: create emulators with createEmulator()`);
    return (loaded = require(id) as T);
  };
}

/**
 * Gives the library `id` to its getters, so it is not loaded from node_modules: for a build that
 * bundles it, which the CLI does with the router it needs for its first answer (a bundled library
 * is in the CLI's code cache; one loaded from node_modules is resolved, read and compiled each start).
 */
export function provideModule(id: string, value: unknown): void {
  provided.set(id, value);
}

/** Loads every lazy library where there is no `require` (a page); nothing in Node. */
export async function loadLazyModules(): Promise<void> {
  await Promise.all(loaders.map((load) => load()));
}
