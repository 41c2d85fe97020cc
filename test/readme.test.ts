// The README and every page of docs/ run as written: every `json` block is seeded, every `ts` block is type-checked
// (as ESM, and for what a CommonJS project refuses) and run as a vitest file, and every `curl`
// line of an `sh` block is sent to a served world. A `gitlab-emulator serve ...` line in an `sh`
// block (or `npx gitlab-emulator ...`) serves the curl lines after it with those flags. A block that should not run is
// fenced without a language (or as `text`).
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_FIXTURE, type Fixture } from '../src/index.js';
import { parseCommandLine } from '../src/transports/cli-options.js';

const ROOT = join(import.meta.dirname, '..');
/**
 * The pages whose blocks run: the README and every page of docs/, except the maintainers' two
 * whose `ts` blocks are excerpts of src/ (a shape to copy), not programs.
 */
const EXCERPTS = new Set(['architecture.md', 'adding-a-family.md']);
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && !EXCERPTS.has(f))
    .sort()
    .map((f) => `docs/${f}`),
];

interface Block {
  lang: string;
  code: string;
  line: number;
  heading: string;
  page?: string;
}

/** Fenced blocks with their language, the line they start on and the heading above them (indented blocks of list items too). */
export function blocksOf(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const h = /^#+\s+(.*)$/.exec(lines[i]!);
    if (h) heading = h[1]!;
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    blocks.push({ lang: open[2]!, code: body.join('\n'), line: i + 1, heading });
    i = j;
  }
  return blocks;
}

const BLOCKS = PAGES.flatMap((page) => blocksOf(readFileSync(join(ROOT, page), 'utf8')).map((b) => ({ ...b, page })));
const named = (b: Block) => `${b.page ?? 'README.md'} line ${b.line} (${b.heading})`;
/** A block's file name among the snippets: its page and line. */
const fileOf = (b: Block) => `${(b.page ?? 'README.md').replace(/\//g, '_').replace(/\.md$/, '')}-line-${b.line}.test.ts`;

/** A shell line's words: single and double quotes, backslash escapes, no expansion. */
function words(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; line[j] !== '"'; j++) text += line[j] === '\\' ? line[++j] : line[j];
      word = (word ?? '') + text;
      i = j;
    } else if (c === '\\') word = (word ?? '') + line[++i];
    else if (/\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) out.push(word);
  return out;
}

/** The commands of a shell block: continuation lines joined, comments dropped. */
function commands(code: string): string[] {
  return code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

function curl(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('curl', ['--silent', '--show-error', '--fail', '--max-time', '10', ...args], { cwd }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the README and the docs run as written', () => {
  it('has blocks of each kind to run', () => {
    const langs = new Set(BLOCKS.map((b) => b.lang));
    for (const lang of ['ts', 'json', 'sh']) expect(langs).toContain(lang);
  });

  it('reads the README and the docs pages it links to', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const page of PAGES.filter((p) => p !== 'README.md')) expect(readme, `README.md links ${page}`).toContain(`](${page}`);
    expect(BLOCKS.filter((b) => b.page === 'README.md' && b.lang === 'ts')).not.toHaveLength(0);
  });

  describe('json blocks are fixtures that seed', () => {
    for (const block of BLOCKS.filter((b) => b.lang === 'json')) {
      it(named(block), async () => {
        const data = JSON.parse(block.code) as Record<string, unknown>;
        // A block that is one project is seeded into the default world, which has its users and group.
        if ('namespace' in data) {
          const e = await createEmulator();
          const handles = await e.seed({ projects: [data] } as Fixture);
          expect(Object.keys(handles.projects)).toEqual([`${String(data.namespace)}/${String(data.path)}`]);
        } else {
          const e = await createEmulator({ fixture: data as Fixture });
          expect(e.state).toBeDefined();
        }
      });
    }
    it('the default world, fixtures/default.json, seeds too', async () => {
      await expect(createEmulator({ fixture: DEFAULT_FIXTURE })).resolves.toBeDefined();
    });
  });

  describe('curl lines answer from a served world', () => {
    const work = mkdtempSync(join(tmpdir(), 'gle-readme-'));
    afterAll(() => rmSync(work, { recursive: true, force: true }));
    const shell = BLOCKS.filter((b) => b.lang === 'sh' && /^\s*curl\s/m.test(b.code));
    for (const block of shell) {
      it(named(block), async () => {
        let flags: string[] = ['serve'];
        let ran = 0;
        for (const command of commands(block.code)) {
          const argv = words(command);
          if (argv[0] === 'npx') argv.shift();
          if (argv[0] === 'gitlab-emulator') {
            flags = argv.slice(1);
            continue;
          }
          if (argv[0] !== 'curl') continue;
          const parsed = parseCommandLine([...flags, '--port', '0'], {});
          if (parsed.kind !== 'serve') throw new Error(`${named(block)}: gitlab-emulator ${flags.join(' ')}: ${JSON.stringify(parsed)}`);
          const o = parsed.options;
          const e = await createEmulator({
            fixture: o.tier || o.offering ? { ...DEFAULT_FIXTURE, instance: { ...DEFAULT_FIXTURE.instance, ...(o.tier ? { tier: o.tier } : {}), ...(o.offering ? { offering: o.offering } : {}) } } : DEFAULT_FIXTURE,
            ...(o.controlToken ? { controlToken: o.controlToken } : {}),
            ...(o.now !== undefined || o.freeze ? { clock: { ...(o.now !== undefined ? { now: o.now } : {}), frozen: o.freeze === true } } : {}),
            ...(o.seed !== undefined ? { seed: o.seed } : {}),
          });
          const server = await e.listen({ port: 0 });
          try {
            const args = argv.slice(1).map((a) => a.replace(/^(https?:\/\/)?(localhost|127\.0\.0\.1):8080/, `http://127.0.0.1:${server.port}`));
            const dir = join(work, String(block.line));
            mkdirSync(dir, { recursive: true });
            const result = await curl(args, dir);
            expect(result, `${named(block)}: ${command}`).toMatchObject({ code: 0, stderr: '' });
            ran++;
          } finally {
            await server.close();
          }
        }
        expect(ran).toBeGreaterThan(0);
      });
    }
  });

  describe('ts blocks compile and pass as vitest files', () => {
    const blocks = BLOCKS.filter((b) => b.lang === 'ts');
    const dir = join(ROOT, 'node_modules', '.readme-snippets', String(process.pid));
    mkdirSync(dir, { recursive: true });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const files = blocks.map((b) => {
      const file = join(dir, fileOf(b));
      writeFileSync(file, b.code);
      return file;
    });
    const entries: Record<string, string> = {
      'gitlab-emulator': join(ROOT, 'src/index.ts'),
      'gitlab-emulator/msw': join(ROOT, 'src/msw.ts'),
      'gitlab-emulator/vitest': join(ROOT, 'src/vitest.ts'),
    };

    it('type-check as an ES module project would', () => {
      const options: ts.CompilerOptions = {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        strict: true,
        skipLibCheck: true,
        resolveJsonModule: true,
        esModuleInterop: true,
        noEmit: true,
        types: ['node'],
        paths: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, [v]])),
      };
      const program = ts.createProgram(files, options);
      // Only the snippets' own diagnostics: the checker reads of src/ just what they use.
      const problems = files
        .flatMap((f) => {
          const source = program.getSourceFile(f)!;
          return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
        })
        .map((d) => `${d.file!.fileName.replace(/.*\//, '')}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(problems).toEqual([]);
    }, 120_000);

    it('need nothing a CommonJS project refuses (top-level await)', () => {
      const problems: string[] = [];
      blocks.forEach((b) => {
        const source = ts.createSourceFile('snippet.cts', b.code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
        for (const statement of source.statements) {
          const visit = (node: ts.Node): void => {
            if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
            if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) problems.push(`${named(b)}: top-level await: ${node.getText(source).slice(0, 60)}`);
            ts.forEachChild(node, visit);
          };
          visit(statement);
        }
      });
      expect(problems).toEqual([]);
    });

    it('pass when run by vitest', async () => {
      const alias = Object.entries(entries).map(([k, v]) => ({ find: new RegExp(`^${k}$`), replacement: v }));
      writeFileSync(
        join(dir, 'vitest.config.mjs'),
        `export default { resolve: { alias: [${alias.map((a) => `{ find: ${String(a.find)}, replacement: ${JSON.stringify(a.replacement)} }`).join(', ')}] }, test: { include: ['*.test.ts'], exclude: [], testTimeout: 20000 } };\n`,
      );
      const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
      const child = spawn(process.execPath, [vitest, 'run', '--root', dir, '--reporter', 'dot'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '' } });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(output, output).toMatch(new RegExp(`Test Files\\s+${files.length} passed`));
      expect(code, output).toBe(0);
    }, 60_000);
  });
});
