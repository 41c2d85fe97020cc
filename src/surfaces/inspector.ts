// What the inspector page shows, as the control API serves it: the world in brief, a request's
// change to the world as a diff of records, and the page itself (no framework; it calls the
// control API). The world is immutable and shares what did not change, so a diff walks only
// the parts whose identity differs.
import type { CoreState } from '../store/state.js';
import { isTableValue, tchanges, tget, tvalues, type Table } from '../store/table.js';
import { pendingTasks } from '../store/scheduler.js';
import type { Incoming } from '../http/incoming.js';
import { memberCount } from '../store/members.js';

/** The world in brief: the instance, users, groups, projects and scheduled tasks. */
export function worldSummary(state: CoreState) {
  const groups = [...tvalues(state.namespaces)].filter((n) => n.kind === 'group');
  return {
    instance: { tier: state.instance.tier, offering: state.instance.offering },
    users: [...tvalues(state.users)].map((u) => ({ id: u.id, username: u.username, name: u.name, admin: u.admin, bot: u.bot, state: u.state })),
    groups: groups.map((g) => ({ id: g.id, full_path: g.fullPath, visibility: g.visibility, members: memberCount(state, g), pending_delete: g.pendingDelete })),
    projects: [...tvalues(state.projects)].map((p) => ({
      id: p.id,
      path_with_namespace: fullPathOf(state, p.namespaceId, p.path),
      visibility: p.visibility,
      // As the REST entity says it: a project whose repository has no branch yet names `main`.
      default_branch: p.defaultBranch ?? 'main',
      archived: p.archived,
      pending_delete: p.pendingDelete,
    })),
    tasks: pendingTasks(state).map((t) => ({ id: t.id, kind: t.kind, at: new Date(t.at).toISOString(), payload: plain(t.payload) })),
  };
}

function fullPathOf(state: CoreState, namespaceId: number, path: string): string {
  const n = tget(state.namespaces, namespaceId);
  return n ? `${n.fullPath}/${path}` : path;
}

/** One record a request added, removed or changed: `projects/5`, `releases/12`, `instance`. */
export interface RecordChange {
  path: string;
  op: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const isTable = (v: unknown): v is Table<unknown> =>
  typeof v === 'object' && v !== null && isTableValue(v);

/** The records that differ between two worlds, at most `limit` of them. */
export function worldDiff(before: unknown, after: unknown, limit = 200): { changes: RecordChange[]; truncated: boolean } {
  const changes: RecordChange[] = [];
  let truncated = false;
  const emit = (path: string, a: unknown, b: unknown) => {
    if (changes.length >= limit) {
      truncated = true;
      return;
    }
    const op = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    changes.push({ path, op, ...(a !== undefined ? { before: plain(a) } : {}), ...(b !== undefined ? { after: plain(b) } : {}) });
  };
  const walk = (path: string, a: unknown, b: unknown, top: boolean): void => {
    if (a === b || truncated) return;
    if (isTable(a) || isTable(b)) {
      for (const [k, va, vb] of tchanges(isTable(a) ? a : undefined, isTable(b) ? b : undefined)) walk(`${path}/${k}`, va, vb, false);
      return;
    }
    // The world's top level: one entry per slice; a slice that is a plain object (the
    // instance, the sequences) is one record.
    if (top && typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (k === 'rng') continue; // the generator's position: not a record
        walk(k, (a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], false);
      }
      return;
    }
    emit(path, a, b);
  };
  walk('', before, after, true);
  return { changes, truncated };
}

/** JSON-ready: Maps as objects, bytes as their length. */
function plain(value: unknown, depth = 0): unknown {
  if (depth > 8) return '…';
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v, depth + 1)]));
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plain(v, depth + 1);
    return out;
  }
  return value;
}

/** Whether a request asks for the page (a browser's Accept) rather than JSON. */
export function wantsHtml(request: Incoming): boolean {
  const accept = request.headers.get('accept') ?? '';
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

export const INSPECTOR_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gitlab-emulator inspector</title>
<link rel="icon" href="data:,">
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
  header { background: #292961; color: #fff; padding: 8px 16px; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 16px; margin: 0; }
  nav a { color: #fff; margin-right: 12px; text-decoration: none; opacity: .75; }
  nav a.on { opacity: 1; text-decoration: underline; }
  main { padding: 12px 16px; }
  table { border-collapse: collapse; width: 100%; background: #fff; margin-bottom: 16px; }
  th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e5e5e5; vertical-align: top; }
  th { background: #f0f0f5; }
  code, pre { font: 12px/1.4 ui-monospace, monospace; }
  pre { background: #fff; border: 1px solid #e5e5e5; padding: 8px; overflow: auto; max-height: 420px; margin: 0; }
  .s2 { color: #1a7f37; } .s3 { color: #0969da; } .s4 { color: #9a6700; } .s5 { color: #cf222e; }
  .added { color: #1a7f37; } .removed { color: #cf222e; } .changed { color: #9a6700; }
  button { margin: 0 4px 4px 0; }
  .row { display: flex; gap: 16px; flex-wrap: wrap; } .row > * { flex: 1 1 420px; }
  #status { font-size: 12px; opacity: .85; }
  tr.pick { cursor: pointer; } tr.pick:hover { background: #f5f5ff; }
</style>
</head>
<body>
<header>
  <h1>gitlab-emulator</h1>
  <nav id="nav"></nav>
  <span id="status"></span>
</header>
<main id="main">Loading…</main>
<script>
const VIEWS = ['world', 'repositories', 'journal', 'clock', 'faults', 'snapshots'];
const base = location.pathname.replace(/\\/+$/, '');
let token = sessionStorage.getItem('gitlab-emulator-control-token') || '';
const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (token) headers['X-Emulator-Token'] = token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401) {
    token = prompt('The control API needs its token') || '';
    sessionStorage.setItem('gitlab-emulator-control-token', token);
    return api(method, path, body);
  }
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error((data && data.message) || res.status);
  return data;
}

function table(rows, columns) {
  if (!rows.length) return '<p>none</p>';
  return '<table><tr>' + columns.map((c) => '<th>' + esc(c[0]) + '</th>').join('') + '</tr>' +
    rows.map((r) => '<tr>' + columns.map((c) => '<td>' + c[1](r) + '</td>').join('') + '</tr>').join('') + '</table>';
}

async function header() {
  const c = await api('GET', '/clock');
  $('status').textContent = 'clock ' + c.now + (c.frozen ? ' (frozen)' : '') + ' · ' + c.pending_tasks + ' pending task(s)';
}

const render = {
  async world() {
    const w = await api('GET', '/world');
    return '<h2>Instance</h2><p>' + esc(w.instance.tier) + ', ' + esc(w.instance.offering) + '</p>' +
      '<h2>Users</h2>' + table(w.users, [['id', (u) => u.id], ['username', (u) => esc(u.username)], ['name', (u) => esc(u.name)], ['admin', (u) => u.admin ? 'yes' : ''], ['state', (u) => esc(u.state)]]) +
      '<h2>Groups</h2>' + table(w.groups, [['id', (g) => g.id], ['full path', (g) => esc(g.full_path)], ['visibility', (g) => esc(g.visibility)], ['members', (g) => g.members]]) +
      '<h2>Projects</h2>' + table(w.projects, [['id', (p) => p.id], ['path', (p) => '<a href="#repositories/' + p.id + '">' + esc(p.path_with_namespace) + '</a>'], ['visibility', (p) => esc(p.visibility)], ['default branch', (p) => esc(p.default_branch)], ['state', (p) => p.pending_delete ? 'pending delete' : p.archived ? 'archived' : '']]) +
      '<h2>Scheduled tasks</h2>' + table(w.tasks, [['id', (t) => t.id], ['kind', (t) => esc(t.kind)], ['at', (t) => esc(t.at)], ['payload', (t) => '<code>' + esc(JSON.stringify(t.payload)) + '</code>']]);
  },
  async repositories(arg) {
    const w = await api('GET', '/world');
    const id = Number(arg) || (w.projects[0] && w.projects[0].id);
    let out = '<p>' + w.projects.map((p) => '<a href="#repositories/' + p.id + '">' + esc(p.path_with_namespace) + '</a>').join(' · ') + '</p>';
    if (!id) return out + '<p>no projects</p>';
    const r = await api('GET', '/projects/' + id + '/repository');
    out += '<h2>' + esc(r.path_with_namespace) + '</h2>';
    if (r.empty) return out + '<p>empty repository</p>';
    const refs = (o) => Object.entries(o).map(([k, v]) => ({ name: k, sha: typeof v === 'string' ? v : v.target }));
    return out + '<div class="row"><div><h3>Branches (HEAD ' + esc(r.head) + ')</h3>' + table(refs(r.branches), [['name', (b) => esc(b.name)], ['commit', (b) => '<code>' + esc(b.sha.slice(0, 8)) + '</code>']]) +
      '<h3>Tags</h3>' + table(refs(r.tags), [['name', (b) => esc(b.name)], ['target', (b) => '<code>' + esc(b.sha.slice(0, 8)) + '</code>']]) + '</div>' +
      '<div><h3>Tree at ' + esc(r.head) + '</h3><pre>' + esc(r.tree.join('\\n')) + '</pre></div></div>' +
      '<h3>Commits</h3>' + table(r.commits, [['id', (c) => '<code>' + esc(c.id.slice(0, 8)) + '</code>'], ['message', (c) => esc(c.title)], ['author', (c) => esc(c.author)], ['date', (c) => esc(c.date)]]);
  },
  async journal(arg) {
    const entries = (await api('GET', '/journal?limit=200')).reverse();
    let detail = '';
    if (arg) {
      const e = await api('GET', '/journal/' + arg);
      detail = '<h3>Request ' + e.seq + ': ' + esc(e.method) + ' ' + esc(e.path + e.query) + ' → ' + e.status + '</h3>' +
        (e.changes.length ? table(e.changes, [['record', (c) => '<code>' + esc(c.path) + '</code>'], ['', (c) => '<span class="' + c.op + '">' + c.op + '</span>'], ['before', (c) => c.before === undefined ? '' : '<pre>' + esc(JSON.stringify(c.before, null, 1)) + '</pre>'], ['after', (c) => c.after === undefined ? '' : '<pre>' + esc(JSON.stringify(c.after, null, 1)) + '</pre>']]) : '<p>no change to the world</p>') +
        '<button data-act="restore" data-seq="' + e.seq + '" data-to="before">world as before it</button><button data-act="restore" data-seq="' + e.seq + '" data-to="after">world as after it</button>';
    }
    return '<div class="row"><div>' + table(entries, [['#', (e) => '<a href="#journal/' + e.seq + '">' + e.seq + '</a>'], ['at', (e) => esc(e.at)], ['request', (e) => esc(e.method) + ' <code>' + esc(e.path + e.query) + '</code>' + (e.noRoute ? ' <em>not emulated</em>' : '')], ['status', (e) => '<span class="s' + String(e.status)[0] + '">' + e.status + '</span>'], ['caller', (e) => esc(e.user ?? 'anonymous')], ['ms', (e) => e.durationMs.toFixed(1)]]) +
      '<button data-act="clear-journal">clear the journal</button></div><div>' + detail + '</div></div>';
  },
  async clock() {
    const c = await api('GET', '/clock');
    const w = await api('GET', '/world');
    return '<h2>Clock</h2><p id="clock-now">' + esc(c.now) + (c.frozen ? ' (frozen)' : ' (running)') + '</p>' +
      '<p><button data-act="advance" data-by="1h">advance 1h</button><button data-act="advance" data-by="1d">advance 1d</button><button data-act="advance" data-by="7d">advance 7d</button>' +
      '<button data-act="freeze">' + (c.frozen ? 'unfreeze' : 'freeze') + '</button><button data-act="run">run pending work</button></p>' +
      '<h2>Scheduled tasks</h2><div id="tasks">' + table(w.tasks, [['id', (t) => t.id], ['kind', (t) => esc(t.kind)], ['at', (t) => esc(t.at)], ['payload', (t) => '<code>' + esc(JSON.stringify(t.payload)) + '</code>']]) + '</div>';
  },
  async faults() {
    const f = await api('GET', '/faults');
    return '<h2>Injected faults</h2>' + table(f, [['id', (x) => x.id], ['method', (x) => esc(x.method ?? 'any')], ['path', (x) => '<code>' + esc(x.path) + '</code>'], ['status', (x) => esc(x.status ?? '')], ['latency', (x) => esc(x.latencyMs ?? '')], ['times', (x) => esc(x.times ?? '∞')], ['', (x) => '<button data-act="unfault" data-id="' + x.id + '">remove</button>']]) +
      '<h3>Add one</h3><p><input id="f-method" placeholder="method" size="6"> <input id="f-path" placeholder="/projects/1" size="30"> <input id="f-status" placeholder="status" size="5"> <input id="f-latency" placeholder="latency ms" size="9"> <button data-act="fault">add</button> <button data-act="clear-faults">remove all</button></p>';
  },
  async snapshots() {
    const names = await api('GET', '/snapshots');
    return '<h2>Snapshots</h2>' + table(names.map((n) => ({ n })), [['name', (x) => esc(x.n)], ['', (x) => '<button data-act="restore-snapshot" data-name="' + esc(x.n) + '">restore</button><button data-act="delete-snapshot" data-name="' + esc(x.n) + '">delete</button>']]) +
      '<p><input id="snap-name" placeholder="name"> <button data-act="save-snapshot">save the world as</button></p>' +
      '<h2>Reset</h2><p><button data-act="reset">reset to the seeded world</button> (clears the journal and the faults)</p>';
  },
};

const actions = {
  advance: (b) => api('POST', '/clock', { advance: b.dataset.by }),
  freeze: async () => api('POST', '/clock', { freeze: !(await api('GET', '/clock')).frozen }),
  run: () => api('POST', '/clock/run-until-idle', {}),
  restore: (b) => api('POST', '/journal/' + b.dataset.seq + '/restore?to=' + b.dataset.to, {}),
  'clear-journal': () => api('DELETE', '/journal'),
  fault: () => {
    const rule = { path: $('f-path').value };
    if ($('f-method').value) rule.method = $('f-method').value;
    if ($('f-status').value) rule.status = Number($('f-status').value);
    if ($('f-latency').value) rule.latencyMs = Number($('f-latency').value);
    return api('POST', '/faults', rule);
  },
  unfault: (b) => api('DELETE', '/faults/' + b.dataset.id),
  'clear-faults': () => api('DELETE', '/faults'),
  'save-snapshot': () => api('POST', '/snapshots/' + encodeURIComponent($('snap-name').value || 'snapshot'), {}),
  'restore-snapshot': (b) => api('POST', '/snapshots/' + encodeURIComponent(b.dataset.name) + '/restore', {}),
  'delete-snapshot': (b) => api('DELETE', '/snapshots/' + encodeURIComponent(b.dataset.name)),
  reset: () => api('POST', '/reset', {}),
};

async function show() {
  const [view, arg] = (location.hash.slice(1) || 'world').split('/');
  const name = VIEWS.includes(view) ? view : 'world';
  $('nav').innerHTML = VIEWS.map((v) => '<a href="#' + v + '" class="' + (v === name ? 'on' : '') + '">' + v + '</a>').join('');
  try {
    $('main').innerHTML = await render[name](arg);
    await header();
  } catch (e) {
    $('main').innerHTML = '<p class="s5">' + esc(e.message) + '</p>';
  }
  document.body.dataset.view = name;
  document.body.dataset.ready = String(Date.now());
}

document.addEventListener('click', async (event) => {
  const b = event.target.closest('button[data-act]');
  if (!b) return;
  try {
    await actions[b.dataset.act](b);
  } catch (e) {
    alert(e.message);
  }
  await show();
});
addEventListener('hashchange', show);
show();
</script>
</body>
</html>
`;
