// Node's file system, for writing a repository out to a real directory; loaded only when called.
// The browser build swaps in disk.browser.ts.
export async function disk(): Promise<{
  mkdir(path: string, options: { recursive: boolean }): Promise<unknown>;
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  join(...parts: string[]): string;
}> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  return { mkdir, writeFile, join };
}
