// Node's file system, for writing a repository out to a real directory; loaded only when called.
// The browser build swaps in disk.browser.ts.
export async function disk(): Promise<{
  mkdir(path: string, options: { recursive: boolean }): Promise<unknown>;
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  rm(path: string, options: { recursive: boolean; force: boolean }): Promise<void>;
  join(...parts: string[]): string;
  /** Node's `fs`, as isomorphic-git takes a file system. */
  fs: unknown;
}> {
  const { mkdir, writeFile, rm } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const fs = await import('node:fs');
  return { mkdir, writeFile, rm, join, fs };
}
