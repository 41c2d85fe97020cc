// The browser build leaves out what needs Node: bundled by esbuild for the browser with its
// defaults (no polyfills, no stubs), `gitlab-emulator/browser` resolves every import, and none of
// Node's modules, memfs or the node:http door is in it. `npm run test:browser` runs such a page
// in headless Chromium; here the browser's volume (Maps) is checked on its own.
import { join } from 'node:path';
import { build } from 'esbuild';
import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { browserSwaps } from '../scripts/browser-swaps.js';
import { newVolume } from '../src/git/volume.browser.js';

const ROOT = join(import.meta.dirname, '..');

describe('the browser build', () => {
  it('bundles for the browser with no Node module, no memfs and no server', async () => {
    const result = await build({
      entryPoints: [join(ROOT, 'src', 'browser.ts')],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
      plugins: [browserSwaps],
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((i) => /(^|\/)(memfs|@jsonjoy\.com|@hono\/node-server)\//.test(i) || /^node:/.test(i))).toEqual([]);
    // isomorphic-git (sha.js -> safe-buffer -> node's 'buffer') is for export to disk only.
    expect(inputs.filter((i) => /(^|\/)(isomorphic-git|sha\.js|safe-buffer|buffer)\//.test(i))).toEqual([]);
    expect(inputs.filter((i) => /src\/(transports\/(node-server|listen)|git\/disk)\.ts$/.test(i))).toEqual([]);
    expect(inputs.some((i) => i.endsWith('src/git/disk.browser.ts'))).toBe(true);
    expect(inputs.some((i) => i.endsWith('src/transports/listen.browser.ts'))).toBe(true);
    expect(inputs.some((i) => i.endsWith('src/git/volume.browser.ts'))).toBe(true);
  }, 60_000);

  it("the browser's volume keeps files and folders, and isomorphic-git reads a repository on it", async () => {
    const { volume, fs } = newVolume();
    volume.mkdirSync('/r/objects/ab', { recursive: true });
    volume.writeFileSync('/r/objects/ab/cd', 'x');
    expect(volume.existsSync('/r/objects/ab/cd')).toBe(true);
    expect(volume.readdirSync('/r/objects')).toEqual(['ab']);
    expect(() => volume.readFileSync('/r/none')).toThrow(/ENOENT/);
    expect(() => volume.writeFileSync('/nowhere/x', 'x')).toThrow(/ENOENT/);
    await git.init({ fs, dir: '/w', defaultBranch: 'main' });
    volume.writeFileSync('/w/a.txt', 'a\n');
    await git.add({ fs, dir: '/w', filepath: 'a.txt' });
    const oid = await git.commit({ fs, dir: '/w', message: 'first', author: { name: 'A', email: 'a@example.com', timestamp: 0, timezoneOffset: 0 } });
    const { blob } = await git.readBlob({ fs, dir: '/w', oid, filepath: 'a.txt' });
    expect(new TextDecoder().decode(blob)).toBe('a\n');
  });
});
