// Node's file system, for writing a repository out to a real directory; loaded only when called.
// The browser build swaps in disk.browser.ts.
export async function disk(): Promise<{
  mkdir(path: string, options: { recursive: boolean }): Promise<unknown>;
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  rm(path: string, options: { recursive: boolean; force: boolean }): Promise<void>;
  join(...parts: string[]): string;
  /** Node's `fs`, as isomorphic-git takes a file system. */
  fs: unknown;
  /** isomorphic-git, which checks a working copy out: loaded here, as it needs Node (its Buffer), which a page's bundle does not have. */
  git(): Promise<typeof import('isomorphic-git').default>;
}> {
  const { mkdir, writeFile, rm } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const fs = await import('node:fs');
  return { mkdir, writeFile, rm, join, fs, git: async () => (await import('isomorphic-git')).default };
}
