// Import from a live GitLab: `importFromGitlab` for code, `runImport` for the CLI's `import`
// subcommand (loaded only when it runs: it reads and writes files and is no part of the package's
// main entry or the browser build).
import { writeFile } from 'node:fs/promises';
import { importFromGitlab, ImportError, type ImportResult } from './crawl.js';
import { IMPORT_USAGE, parseImportArgs } from './options.js';

export { importFromGitlab, ImportError, type ImportOptions, type ImportResult } from './crawl.js';
export { parseImportArgs, IMPORT_USAGE } from './options.js';

/** Runs `gitlab-emulator import ARGS`; resolves to the exit code. */
export async function runImport(argv: readonly string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const parsed = parseImportArgs(argv, env);
  if (parsed.kind === 'help') {
    process.stdout.write(`${IMPORT_USAGE}\n`);
    return 0;
  }
  if (parsed.kind === 'error') {
    say(`gitlab-emulator: ${parsed.message}`);
    return 2;
  }
  const o = parsed.options;
  let result: ImportResult;
  try {
    result = await importFromGitlab({ from: o.from, token: o.token, projects: o.projects, groups: o.groups, progress: (line) => say(line) });
  } catch (e) {
    say(`gitlab-emulator: import: ${e instanceof ImportError ? e.message : (e as Error).message}`);
    return 1;
  }
  const json = `${JSON.stringify(result.fixture, null, 2)}\n`;
  try {
    if (o.out === '-') process.stdout.write(json);
    else await writeFile(o.out, json);
  } catch (e) {
    say(`gitlab-emulator: import: cannot write ${o.out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    return 1;
  }
  say(summary(result, o.out));
  return 0;
}

/** What was written, what was replaced or left out, and how to sign in to the seeded world. */
export function summary(r: ImportResult, out: string): string {
  const s = r.stats;
  const lines = [
    `wrote ${out === '-' ? 'the fixture to stdout' : out}: ${s.projects} projects, ${s.groups} groups, ${s.users} users, ${s.commits} commits, ${s.issues} issues, ${s.mergeRequests} merge requests, ${s.notes} notes (${s.requests} requests)`,
  ];
  if (r.placeholders.length) {
    lines.push(`CI/CD variables whose value is a placeholder (IMPORT_PLACEHOLDER_<key>; GitLab does not return hidden values, and masked ones are secrets):`);
    for (const p of r.placeholders) lines.push(`  ${p}`);
  }
  if (r.notes.length) {
    lines.push('not carried or changed:');
    for (const n of r.notes) lines.push(`  ${n}`);
  }
  const tokens = Object.entries(r.tokens);
  if (tokens.length) {
    lines.push('no token was copied; the fixture gives each user a new one:');
    for (const [user, token] of tokens) lines.push(`  ${user}: ${token}`);
  }
  return lines.join('\n');
}
