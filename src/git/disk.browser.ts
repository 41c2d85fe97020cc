// In a browser there is no disk to write a repository to (see disk.ts).
import { EmulatorError } from '../core/errors.js';

export async function disk(): Promise<never> {
  throw new EmulatorError('export(dir) writes to a disk: it needs Node, not a browser');
}
