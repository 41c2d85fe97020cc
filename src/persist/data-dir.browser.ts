// The browser build's data directory (scripts/browser-swaps.ts swaps it in for data-dir.ts): a
// page has no file system to keep a world in.
import { EmulatorError } from '../core/errors.js';

export async function openDataDir(): Promise<never> {
  throw new EmulatorError('dataDir needs Node: a page has no directory to keep the world in');
}
