// The package's entry in Node as built (dist/index.cjs; dist/index.js re-exports it, so an import
// and a require share one emulator core): the library's exports, from the core bundle run with
// V8's code cache (code-cache.ts). The cache is kept once an emulator has been made, so that it
// holds the code the seed and the requests compiled.
import type * as Library from './index.js';
import { keepCodeCache, loadCore } from './transports/code-cache.js';

const core = loadCore<typeof Library>('lib');

export const { Emulator, DEFAULT_BASE_URL, DEFAULT_FIXTURE, Clock, parseDuration, ACCESS, EmulatorError, FixtureError, fixture, FixtureBuilder } = core;

export const createEmulator: typeof Library.createEmulator = async (options) => {
  const emulator = await core.createEmulator(options);
  keepCodeCache();
  return emulator;
};
