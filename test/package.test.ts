// What the package ships: `npm pack` lists the built entries (ESM, CommonJS, types), the CLI
// with its shebang, and the fixtures; every entry package.json names is in it. Installing from
// git builds on `prepare`, so `dist/` is there too; `npm start` runs the built CLI.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { userPath } from './support/npm.js';

const ROOT = join(import.meta.dirname, '..');



function packList(): Promise<{ path: string; mode: number }[]> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, env: { ...process.env, PATH: userPath() } }, (err, stdout) => {
      if (err) return reject(err);
      resolve((JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ files: { path: string; mode: number }[] }])[0].files);
    });
  });
}

/** Every file package.json points at: main, module, types, bin and each export condition. */
function named(): string[] {
  const out = new Set<string>([pkg.main, pkg.module, pkg.types, ...Object.values(pkg.bin)]);
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.add(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(pkg.exports);
  return [...out].map((p) => p.replace(/^\.\//, ''));
}

describe('the package', () => {
  it('builds on prepare, and npm start runs the built CLI', () => {
    expect(pkg.scripts.prepare).toBe('node scripts/build.mjs');
    expect(pkg.scripts.start).toBe('node dist/cli.js serve');
    expect(pkg.bin['gitlab-emulator']).toBe('./dist/cli.js');
  });

  it('ships every entry package.json names, the CLI with its shebang, and the fixtures; no sources or tests', async () => {
    const files = await packList();
    const paths = files.map((f) => f.path);
    for (const file of named()) expect(paths, file).toContain(file);
    expect(paths).toContain('fixtures/default.json');
    expect(paths.some((p) => p.startsWith('fixtures/gitignore/'))).toBe(true);
    expect(paths).toContain('README.md');
    expect(paths.filter((p) => /^(src|test|bench|scripts|node_modules)\//.test(p))).toEqual([]);
    expect(readFileSync(join(ROOT, 'dist', 'cli.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  }, 120_000);

  it('its published types give a consumer the world, the fixture and the test handles, from an ES module and from CommonJS', () => {
    // A project that installed the package: node_modules/gitlab-emulator is this folder, read through package.json's exports.
    const dir = mkdtempSync(join(tmpdir(), 'gle-types-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'gitlab-emulator'), 'dir');
    symlinkSync(join(ROOT, 'node_modules', '@types'), join(dir, 'node_modules', '@types'), 'dir');
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const body = `
      const fixture: Fixture = { users: [{ username: 'dev' }], projects: [{ namespace: 'dev', path: 'app', wiki: [{ title: 'Home', content: 'hi' }], issues: [{ title: 'First' }] }] };
      export async function use(): Promise<number> {
        const emulator = await createEmulator({ fixture });
        const pipeline = emulator.ci('dev/app').pipeline({ ref: 'main' });
        const pushes: StoredEvent<'push'>[] = emulator.events.list('push');
        const state: State = emulator.state;
        await emulator.settled();
        return pipeline.id + pushes.length + state.events.size + emulator.moves.list().length;
      }`;
    writeFileSync(join(dir, 'esm.mts'), `import { createEmulator, type Fixture, type State, type StoredEvent } from 'gitlab-emulator';\n${body}`);
    writeFileSync(join(dir, 'cjs.cts'), `import { createEmulator, type Fixture, type State, type StoredEvent } from 'gitlab-emulator';\n${body}`);
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, noEmit: true, skipLibCheck: true, types: ['node'], lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    };
    const files = [join(dir, 'esm.mts'), join(dir, 'cjs.cts')];
    const program = ts.createProgram(files, options);
    const problems = files.flatMap((f) => ts.getPreEmitDiagnostics(program, program.getSourceFile(f)).map((d) => `${f.slice(dir.length)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`));
    expect(problems).toEqual([]);
  }, 120_000);

  it('the built CLI answers --version from package.json', () => {
    expect(execFileSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--version'], { encoding: 'utf8' }).trim()).toBe(pkg.version);
  }, 120_000);
});
