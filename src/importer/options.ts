// `gitlab-emulator import ...`: its flags, read without side effects. A mistake is a one-line
// message that names the flag.
export const IMPORT_USAGE = `usage: gitlab-emulator import --from URL --token TOKEN [--project PATH ...] [--group PATH ...] --out FILE

Crawls a GitLab (gitlab.com or self-managed) through its REST API and git over HTTP, and writes
a fixture that seeds the same projects: repositories with their history, issues, merge requests,
notes, labels, milestones, releases, members, CI/CD variables and users. Progress goes to stderr.

flags:
  --from URL        the GitLab to read, such as https://gitlab.com (or $GITLAB_URL)
  --token TOKEN     a personal access token with read_api (or api), or $GITLAB_TOKEN;
                    it is never written to the fixture
  --project PATH    a project's full path, such as acme/app (repeatable)
  --group PATH      a group whose projects, subgroups' included, are imported (repeatable)
                    (neither: every project the token's user is a member of)
  --out FILE        where to write the fixture (JSON); - for stdout
  -h, --help        print this help

example:
  gitlab-emulator import --from https://gitlab.com --token "$GITLAB_TOKEN" --project acme/app --out world.json
  gitlab-emulator serve --fixture world.json`;

export interface ImportCommand {
  from: string;
  token: string;
  projects: string[];
  groups: string[];
  out: string;
}

export type ParsedImport = { kind: 'help' } | { kind: 'error'; message: string } | { kind: 'import'; options: ImportCommand };

const VALUED = ['from', 'token', 'project', 'group', 'out'] as const;
type Valued = (typeof VALUED)[number];

/** Reads the arguments after `import`. */
export function parseImportArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): ParsedImport {
  const single: Partial<Record<Valued, string>> = {};
  const projects: string[] = [];
  const groups: string[] = [];
  const error = (message: string): ParsedImport => ({ kind: 'error', message });
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    if (!arg.startsWith('--')) return error(`import: unexpected argument '${arg}' (see import --help)`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!(VALUED as readonly string[]).includes(name)) {
      const near = VALUED.find((v) => v.startsWith(name) || name.startsWith(v));
      return error(`import: unknown flag '--${name}'${near ? `; did you mean '--${near}'?` : ''} (see import --help)`);
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('--')) || value === '') return error(`import: --${name} needs a value (see import --help)`);
    if (name === 'project') projects.push(value.replace(/^\/+|\/+$/g, ''));
    else if (name === 'group') groups.push(value.replace(/^\/+|\/+$/g, ''));
    else if (single[name as Valued] !== undefined) return error(`import: --${name} is given twice`);
    else single[name as Valued] = value;
  }
  const from = single.from ?? (env.GITLAB_URL || undefined);
  if (from === undefined) return error('import: --from is required: the URL of the GitLab to read (see import --help)');
  if (!/^https?:\/\/[^/\s]+/.test(from)) return error(`import: --from must be an http(s) URL, not '${from}'`);
  const token = single.token ?? (env.GITLAB_TOKEN || undefined);
  if (token === undefined) return error('import: --token is required: a personal access token with read_api or api (or $GITLAB_TOKEN)');
  if (!/^\S+$/.test(token)) return error('import: --token must be a token without spaces');
  if (single.out === undefined) return error('import: --out is required: the fixture file to write (- for stdout)');
  for (const p of projects) if (!/^[^/\s]+(?:\/[^/\s]+)+$/.test(p)) return error(`import: --project must be a project's full path such as group/project, not '${p}'`);
  for (const g of groups) if (!/^[^/\s]+(?:\/[^/\s]+)*$/.test(g)) return error(`import: --group must be a group's full path such as group/subgroup, not '${g}'`);
  return { kind: 'import', options: { from, token, projects, groups, out: single.out } };
}
