// The object store's volume: files and folders in Maps, with the synchronous calls the object
// store makes and the promise calls isomorphic-git makes, so that isomorphic-git reads a
// repository's gitdir on `fs` too. Nothing to load: a volume is there with the first emulator
// (memfs, the volume before, cost about 25 ms of CPU to load and a path walk on every write),
// and the same code serves a page, which has no Node modules.
import type { FsClient } from 'isomorphic-git';
import type { SyncVolume } from './volume.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

function fsError(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: no such file or directory, '${path}'`), { code, path });
}

const norm = (path: string) => (path.replace(/\/+/g, '/').replace(/(.)\/$/, '$1') || '/');
const parentOf = (path: string) => path.slice(0, Math.max(1, path.lastIndexOf('/')));
const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export class MapVolume implements SyncVolume {
  readonly files = new Map<string, Uint8Array>();
  readonly dirs = new Map<string, Set<string>>([['/', new Set()]]);

  existsSync(path: string): boolean {
    const p = norm(path);
    return this.files.has(p) || this.dirs.has(p);
  }

  readFileSync(path: string): Uint8Array;
  readFileSync(path: string, encoding: 'utf8'): string;
  readFileSync(path: string, encoding?: 'utf8'): Uint8Array | string {
    const data = this.files.get(norm(path));
    if (!data) throw fsError('ENOENT', path);
    return encoding === 'utf8' ? dec.decode(data) : data;
  }

  writeFileSync(path: string, data: Uint8Array | string): void {
    const p = norm(path);
    const dir = this.dirs.get(parentOf(p));
    if (!dir) throw fsError('ENOENT', path);
    dir.add(baseOf(p));
    this.files.set(p, typeof data === 'string' ? enc.encode(data) : data);
  }

  mkdirSync(path: string, options: { recursive?: boolean } = {}): void {
    const p = norm(path);
    if (this.dirs.has(p)) {
      if (options.recursive) return;
      throw fsError('EEXIST', path);
    }
    const parent = parentOf(p);
    if (!this.dirs.has(parent)) {
      if (!options.recursive) throw fsError('ENOENT', path);
      this.mkdirSync(parent, options);
    }
    this.dirs.get(parent)!.add(baseOf(p));
    this.dirs.set(p, new Set());
  }

  readdirSync(path: string): string[] {
    const dir = this.dirs.get(norm(path));
    if (!dir) throw fsError('ENOENT', path);
    return [...dir].sort();
  }

  unlinkSync(path: string): void {
    const p = norm(path);
    if (!this.files.delete(p)) throw fsError('ENOENT', path);
    this.dirs.get(parentOf(p))?.delete(baseOf(p));
  }

  rmdirSync(path: string): void {
    const p = norm(path);
    const dir = this.dirs.get(p);
    if (!dir) throw fsError('ENOENT', path);
    if (dir.size) throw fsError('ENOTEMPTY', path);
    this.dirs.delete(p);
    this.dirs.get(parentOf(p))?.delete(baseOf(p));
  }

  /** Removes a file, or a directory and everything under it (a released storage); nothing when it is not there. */
  rmSync(path: string, _options?: { recursive: true; force: true }): void {
    const p = norm(path);
    if (this.files.delete(p)) {
      this.dirs.get(parentOf(p))?.delete(baseOf(p));
      return;
    }
    if (!this.dirs.has(p)) return;
    const drop = (dir: string): void => {
      for (const name of this.dirs.get(dir)!) {
        const child = dir === '/' ? `/${name}` : `${dir}/${name}`;
        if (!this.files.delete(child) && this.dirs.has(child)) drop(child);
      }
      this.dirs.delete(dir);
    };
    drop(p);
    if (p === '/') this.dirs.set('/', new Set());
    else this.dirs.get(parentOf(p))?.delete(baseOf(p));
  }

  statSync(path: string) {
    const p = norm(path);
    const file = this.files.get(p);
    const isDir = this.dirs.has(p);
    if (!file && !isDir) throw fsError('ENOENT', path);
    const type = file ? 'file' : 'dir';
    return {
      type,
      mode: file ? 0o100644 : 0o40000,
      size: file?.length ?? 0,
      ino: 0,
      mtimeMs: 0,
      ctimeMs: 0,
      uid: 1,
      gid: 1,
      dev: 1,
      isFile: () => type === 'file',
      isDirectory: () => type === 'dir',
      isSymbolicLink: () => false,
    };
  }
}

/** isomorphic-git's promise file system over the same Maps. */
export function promiseFs(v: MapVolume): FsClient {
  const later =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    async (...args: A): Promise<R> =>
      fn(...args);
  const promises = {
    readFile: later((path: string, options?: string | { encoding?: string }) => {
      const data = v.readFileSync(path);
      const encoding = typeof options === 'string' ? options : options?.encoding;
      return encoding === 'utf8' ? dec.decode(data) : data;
    }),
    writeFile: later((path: string, data: Uint8Array | string) => v.writeFileSync(path, data)),
    unlink: later((path: string) => v.unlinkSync(path)),
    readdir: later((path: string) => v.readdirSync(path)),
    mkdir: later((path: string) => v.mkdirSync(path)),
    rmdir: later((path: string) => v.rmdirSync(path)),
    stat: later((path: string) => v.statSync(path)),
    lstat: later((path: string) => v.statSync(path)),
    readlink: later((path: string) => {
      throw fsError('ENOENT', path);
    }),
    symlink: later((_target: string, path: string) => {
      throw fsError('ENOTSUP', path);
    }),
    chmod: later(() => undefined),
  };
  return { promises } as unknown as FsClient;
}
