// The package as a project meets it: packed (`npm pack`), installed from the tarball into an
// empty project with `npm i -D <tarball> msw vitest`, as the docs say (docs/install.md). One
// tarball and one install for the file. Skipped, saying so, where the registry is unreachable.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPath } from './support/npm.js';
import { CHROMIUM, runPage } from './support/chromium.js';

const ROOT = join(import.meta.dirname, '..');
const NETWORK = /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH)|network|socket hang up/i;

/** The consumer project, once made. */
let dir = '';
/** The temporary folder of the tarball and the project. */
let scratch = '';
let unavailable: string | undefined;



function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, env: { ...process.env, PATH: userPath(), ...options.env }, maxBuffer: 64 << 20, timeout: 540_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

/** Node in the project, as its own scripts would run: an ES module, or CommonJS. */
async function node(source: string, type: 'module' | 'commonjs'): Promise<{ code: number; out: string }> {
  return run(process.execPath, [`--input-type=${type}`, '-e', source], { cwd: dir });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'gle-consumer-'));
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch], { cwd: ROOT });
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.out}`);
  // The one file npm pack wrote there (its --json output may be followed by warnings of the install's engines).
  const tarball = join(scratch, readdirSync(scratch).find((f) => f.endsWith('.tgz'))!);
  const project = join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  dir = project;
  const installed = await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--loglevel=error', tarball, 'msw', 'vitest'], { cwd: dir, env: { npm_config_update_notifier: 'false' } });
  if (installed.code !== 0) {
    if (NETWORK.test(installed.out)) unavailable = `the npm registry is unreachable: ${installed.out.split('\n').find((l) => NETWORK.test(l))}`;
    else throw new Error(`npm install failed:\n${installed.out}`);
  }
}, 600_000);

afterAll(() => {
  // The scratch folder this file made, never a folder above it (a failed pack leaves `dir` unset).
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}, 120_000);

/** Skips the test, with the reason, where nothing could be installed. */
function needsInstall(ctx: { skip: (note?: string) => void }): void {
  if (unavailable) ctx.skip(unavailable);
}

describe('the packed package in a new project', () => {
  it('ships a LICENSE, and the project holds no `buffer` package (nothing of ours needs one)', (ctx) => {
    needsInstall(ctx);
    const pkg = join(dir, 'node_modules', 'gitlab-emulator');
    expect(readFileSync(join(pkg, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} gitlab-emulator contributors\n/);
    expect((JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { license: string }).license).toBe('MIT');
    expect(existsSync(join(dir, 'node_modules', 'buffer'))).toBe(false);
  });

  it('imports as an ES module and requires as CommonJS; /vitest has no CommonJS entry', async (ctx) => {
    needsInstall(ctx);
    const use = `const e = await createEmulator(); const r = await e.handle(new Request(e.baseUrl + '/api/v4/projects')); console.log(r.status, (await r.json()).length > 0);`;
    expect(await node(`import { createEmulator } from 'gitlab-emulator'; import { handlers } from 'gitlab-emulator/msw'; ${use} console.log(typeof handlers);`, 'module')).toEqual({ code: 0, out: '200 true\nfunction\n' });
    expect(await node(`const { createEmulator } = require('gitlab-emulator'); const { handlers } = require('gitlab-emulator/msw'); (async () => { ${use} console.log(typeof handlers); })();`, 'commonjs')).toEqual({ code: 0, out: '200 true\nfunction\n' });
    const vitestCjs = await node(`require('gitlab-emulator/vitest')`, 'commonjs');
    expect(vitestCjs.code).not.toBe(0);
    expect(vitestCjs.out).toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it('type-checks the entries under moduleResolution node10 and nodenext', (ctx) => {
    needsInstall(ctx);
    const body = (vitest: boolean) => `
      import { createEmulator, type Fixture } from 'gitlab-emulator';
      import { handlers, type HandlerOptions } from 'gitlab-emulator/msw';
      ${vitest ? "import { useGitlabEmulator, fixture } from 'gitlab-emulator/vitest';" : ''}
      import * as browser from 'gitlab-emulator/browser';
      const world: Fixture = { users: [{ username: 'dev' }] };
      const options: HandlerOptions = { baseUrl: 'https://gitlab.test' };
      // @ts-expect-error a base URL is a string
      const wrong: HandlerOptions = { baseUrl: 1 };
      export async function go(): Promise<number> {
        const emulator = await createEmulator({ fixture: world });
        ${vitest ? "const gl = useGitlabEmulator({ fixture: fixture().user('dev') }); void gl.apiUrl;" : ''}
        void browser.createEmulator;
        return handlers(emulator, options).length + String(wrong).length;
      }`;
    const check = (name: string, files: Record<string, string>, options: ts.CompilerOptions) => {
      const paths = Object.entries(files).map(([file, text]) => (writeFileSync(join(dir, file), text), join(dir, file)));
      const program = ts.createProgram(paths, { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], types: [], ...options });
      return ts.getPreEmitDiagnostics(program).map((d) => `${name} ${d.file?.fileName.slice(dir.length) ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    };
    const problems = [
      ...check('node10', { 'node10.ts': body(true) }, { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, esModuleInterop: true }),
      ...check('nodenext', { 'next.mts': body(true), 'next.cts': body(false) }, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }),
    ];
    expect(problems).toEqual([]);
  }, 120_000);

  it('runs a vitest file with gitlab-emulator/vitest, and without msw says what to install', async (ctx) => {
    needsInstall(ctx);
    writeFileSync(join(dir, 'gitlab.test.ts'), `
      import { expect, it } from 'vitest';
      import { useGitlabEmulator } from 'gitlab-emulator/vitest';
      const gitlab = useGitlabEmulator();
      it('lists the default world', async () => {
        const res = await fetch(\`\${gitlab.apiUrl}/projects\`, { headers: { 'PRIVATE-TOKEN': 'glpat-emulator-root-token' } });
        expect(res.status).toBe(200);
        expect((await res.json()).map((p: { path_with_namespace: string }) => p.path_with_namespace)).toContain('acme/website');
      });`);
    const vitest = join(dir, 'node_modules', 'vitest', 'vitest.mjs');
    const args = [vitest, 'run', 'gitlab.test.ts', '--root', dir, '--reporter', 'dot'];
    const passed = await run(process.execPath, args, { cwd: dir, env: { CI: '1', NO_COLOR: '1' } });
    expect(passed.out).toMatch(/1 passed/);
    expect(passed.code).toBe(0);
    // The project without msw: the hook fails with the install line.
    renameSync(join(dir, 'node_modules', 'msw'), join(dir, 'node_modules', '.msw-away'));
    try {
      const failed = await run(process.execPath, args, { cwd: dir, env: { CI: '1', NO_COLOR: '1' } });
      expect(failed.code).not.toBe(0);
      expect(failed.out).toContain('gitlab-emulator/vitest needs msw');
      expect(failed.out).toContain('npm i -D msw');
    } finally {
      renameSync(join(dir, 'node_modules', '.msw-away'), join(dir, 'node_modules', 'msw'));
    }
  }, 300_000);
});


describe('gitlab-emulator/browser in the new project', () => {
  /** The page bundled by esbuild with its defaults for a browser, from the project's node_modules. */
  async function bundle(): Promise<{ text: string; inputs: string[] }> {
    const { build } = await import('esbuild');
    writeFileSync(join(dir, 'page.js'), readFileSync(join(ROOT, 'test', 'browser', 'consumer-page.js')));
    const result = await build({ entryPoints: [join(dir, 'page.js')], absWorkingDir: dir, bundle: true, write: false, metafile: true, format: 'esm', platform: 'browser', logLevel: 'silent' });
    return { text: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
  }

  it('bundles with esbuild and with Vite, their defaults, nothing of Node in it', async (ctx) => {
    needsInstall(ctx);
    const { inputs } = await bundle();
    expect(inputs.filter((i) => /node_modules\/(buffer|safe-buffer|sha\.js|isomorphic-git|memfs)\//.test(i))).toEqual([]);
    expect(inputs.some((i) => i.includes('node_modules/gitlab-emulator/dist/browser.js'))).toBe(true);
    // Vite (vitest's own) builds an app whose page imports the same.
    const { build } = await import('vite');
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>consumer page</title><script type="module" src="/page.js"></script>');
    const out = (await build({ root: dir, configFile: false, logLevel: 'silent', build: { write: false } })) as { output: { fileName: string }[] }[] | { output: { fileName: string }[] };
    expect([out].flat().flatMap((o) => o.output.map((f) => f.fileName)).some((f) => f.endsWith('.js'))).toBe(true);
  }, 300_000);

  it.skipIf(!CHROMIUM)('runs in headless Chromium with `npx msw init`\'s worker, beside the page\'s own files', async (ctx) => {
    needsInstall(ctx);
    const initialised = await run(join(dir, 'node_modules', '.bin', 'msw'), ['init', 'public', '--no-save'], { cwd: dir });
    expect(initialised.code, initialised.out).toBe(0);
    const worker = readFileSync(join(dir, 'public', 'mockServiceWorker.js'));
    const { text: page } = await bundle();
    const outcome = await runPage({ page, worker, title: 'consumer page', timeoutMs: 90_000 });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toMatchObject({ projects: 200, created: 201, unknown: 404, ownStatus: 200, ownPage: true });
    expect((outcome.result as { names: string[] }).names).toContain('acme/website');
  }, 300_000);
});
