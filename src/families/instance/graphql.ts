// A small GraphQL endpoint (POST /api/graphql): queries over a few fields of GitLab's schema,
// with graphql-ruby's error envelope for anything else. Query fields: `__typename`,
// `currentUser`, `project(fullPath:)`, `metadata`. No fragments, directives or mutations.

export interface GraphqlError {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

export class GraphqlFailure extends Error {
  constructor(readonly errors: GraphqlError[]) {
    super(errors[0]?.message ?? 'GraphQL error');
  }
}

type Token = { kind: 'punct' | 'name' | 'string' | 'number' | 'var' | 'eof'; value: string; line: number; column: number };

const TOKEN_NAMES: Record<string, string> = { '{': 'LCURLY', '}': 'RCURLY', '(': 'LPAREN', ')': 'RPAREN', ':': 'COLON', '!': 'BANG', '[': 'LBRACKET', ']': 'RBRACKET', '=': 'EQUALS', '$': 'VAR_SIGN', ',': 'COMMA' };

const VAR = /\$([_A-Za-z][_0-9A-Za-z]*)/y;
const NAME = /[_A-Za-z][_0-9A-Za-z]*/y;
const NUMBER = /-?\d+(\.\d+)?([eE][-+]?\d+)?/y;

/** A sticky pattern matched at `i`, without copying the rest of the text. */
function at(re: RegExp, src: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(src);
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      lineStart = ++i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === ',' || c === '\ufeff') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const column = i - lineStart + 1;
    if ('{}():![]='.includes(c)) {
      out.push({ kind: 'punct', value: c, line, column });
      i++;
      continue;
    }
    if (c === '$') {
      const m = at(VAR, src, i);
      if (!m) throw parseError('$', line, column);
      out.push({ kind: 'var', value: m[1]!, line, column });
      i += m[0].length;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let text = '';
      while (j < src.length && src[j] !== '"') {
        if (src[j] === '\n') throw parseError('"', line, column);
        if (src[j] === '\\') {
          const e = src[j + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };
          if (e === 'u') {
            text += String.fromCharCode(Number.parseInt(src.slice(j + 2, j + 6), 16));
            j += 6;
            continue;
          }
          text += map[e ?? ''] ?? '';
          j += 2;
          continue;
        }
        text += src[j];
        j++;
      }
      if (j >= src.length) throw parseError('"', line, column);
      out.push({ kind: 'string', value: text, line, column });
      i = j + 1;
      continue;
    }
    const name = at(NAME, src, i);
    if (name) {
      out.push({ kind: 'name', value: name[0], line, column });
      i += name[0].length;
      continue;
    }
    const num = at(NUMBER, src, i);
    if (num) {
      out.push({ kind: 'number', value: num[0], line, column });
      i += num[0].length;
      continue;
    }
    throw parseError(c, line, column);
  }
  out.push({ kind: 'eof', value: '', line, column: i - lineStart + 1 });
  return out;
}

function parseError(text: string, line: number, column: number, name?: string): GraphqlFailure {
  const label = name ?? (Object.hasOwn(TOKEN_NAMES, text) ? TOKEN_NAMES[text] : undefined) ?? (text === '' ? 'EOF' : 'UNKNOWN_CHAR');
  return new GraphqlFailure([{ message: `Parse error on ${JSON.stringify(text)} (${label}) at [${line}, ${column}]`, locations: [{ line, column }] }]);
}

export type Value = { kind: 'var'; name: string } | { kind: 'literal'; value: unknown };

export interface Field {
  alias: string;
  name: string;
  args: Record<string, Value>;
  selections: Field[] | null;
  line: number;
  column: number;
}

export interface Operation {
  kind: 'query' | 'mutation' | 'subscription';
  selections: Field[];
}

/** Parses one anonymous or named operation (the first, or the one `operationName` names). */
export function parseOperation(src: string, operationName?: string, maxDepth = 20): Operation {
  const tokens = tokenize(src);
  let pos = 0;
  const peek = () => tokens[pos]!;
  const fail = (t: Token): never => {
    throw t.kind === 'eof' ? parseError('', t.line, t.column, 'EOF') : parseError(t.value, t.line, t.column, t.kind === 'name' ? 'IDENTIFIER' : t.kind === 'string' ? 'STRING' : undefined);
  };
  const expect = (value: string) => {
    const t = peek();
    if (t.kind !== 'punct' || t.value !== value) fail(t);
    pos++;
  };
  const value = (): Value => {
    const t = peek();
    pos++;
    if (t.kind === 'var') return { kind: 'var', name: t.value };
    if (t.kind === 'string') return { kind: 'literal', value: t.value };
    if (t.kind === 'number') return { kind: 'literal', value: Number(t.value) };
    if (t.kind === 'name') return { kind: 'literal', value: t.value === 'true' ? true : t.value === 'false' ? false : t.value === 'null' ? null : t.value };
    return fail(t);
  };
  const selectionSet = (depth = 1): Field[] => {
    // GitlabSchema's max_depth, checked while parsing so that no nesting exhausts the stack.
    if (depth > maxDepth) throw new GraphqlFailure([{ message: `Query has depth of ${depth}, which exceeds max depth of ${maxDepth}` }]);
    expect('{');
    const fields: Field[] = [];
    while (!(peek().kind === 'punct' && peek().value === '}')) {
      const t = peek();
      if (t.kind !== 'name') fail(t);
      pos++;
      let alias = t.value;
      let name = t.value;
      if (peek().kind === 'punct' && peek().value === ':') {
        pos++;
        const n = peek();
        if (n.kind !== 'name') fail(n);
        name = n.value;
        pos++;
      }
      const args: Record<string, Value> = Object.create(null);
      if (peek().kind === 'punct' && peek().value === '(') {
        pos++;
        while (!(peek().kind === 'punct' && peek().value === ')')) {
          const a = peek();
          if (a.kind !== 'name') fail(a);
          pos++;
          expect(':');
          args[a.value] = value();
        }
        pos++;
      }
      const selections = peek().kind === 'punct' && peek().value === '{' ? selectionSet(depth + 1) : null;
      fields.push({ alias, name, args, selections, line: t.line, column: t.column });
    }
    if (fields.length === 0) fail(peek());
    pos++;
    return fields;
  };
  const operations: { name?: string; op: Operation }[] = [];
  while (peek().kind !== 'eof') {
    const t = peek();
    if (t.kind === 'punct' && t.value === '{') {
      operations.push({ op: { kind: 'query', selections: selectionSet() } });
      continue;
    }
    if (t.kind !== 'name' || !['query', 'mutation', 'subscription'].includes(t.value)) fail(t);
    pos++;
    let name: string | undefined;
    if (peek().kind === 'name') name = tokens[pos++]!.value;
    if (peek().kind === 'punct' && peek().value === '(') {
      // Variable definitions (`$name: Type! = default`): their types are not checked.
      pos++;
      let depth = 1;
      while (depth > 0) {
        const v = peek();
        if (v.kind === 'eof') fail(v);
        if (v.kind === 'punct' && v.value === '(') depth++;
        if (v.kind === 'punct' && v.value === ')') depth--;
        pos++;
      }
    }
    operations.push({ name, op: { kind: t.value as Operation['kind'], selections: selectionSet() } });
  }
  if (operations.length === 0) throw new GraphqlFailure([{ message: 'No query string was present' }]);
  if (operationName) {
    const found = operations.find((o) => o.name === operationName);
    if (!found) throw new GraphqlFailure([{ message: `No operation named "${operationName}"` }]);
    return found.op;
  }
  if (operations.length > 1) throw new GraphqlFailure([{ message: 'An operation name is required' }]);
  return operations[0]!.op;
}

/** A type of the small schema: each field resolves from the parent value. */
export interface ObjectType<T> {
  name: string;
  fields: Record<string, { resolve: (parent: T, args: Record<string, unknown>) => unknown; type?: ObjectType<any> }>;
}

/** Runs a query's selections over a schema; the unknown field is graphql-ruby's validation error. */
export function execute(type: ObjectType<any>, parent: unknown, fields: Field[], variables: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const f of fields) {
    if (f.name === '__typename') {
      out[f.alias] = type.name;
      continue;
    }
    const def = Object.hasOwn(type.fields, f.name) ? type.fields[f.name] : undefined;
    if (!def) {
      throw new GraphqlFailure([{
        message: `Field '${f.name}' doesn't exist on type '${type.name}'`,
        locations: [{ line: f.line, column: f.column }],
        path: [...path, f.alias],
        extensions: { code: 'undefinedField', typeName: type.name, fieldName: f.name },
      }]);
    }
    if (def.type && !f.selections) {
      throw new GraphqlFailure([{
        message: `Field must have selections (field '${f.name}' returns ${def.type.name} but has no selections. Did you mean '${f.name} { ... }'?)`,
        locations: [{ line: f.line, column: f.column }],
        path: [...path, f.alias],
        extensions: { code: 'selectionMismatch', nodeName: `field '${f.name}'`, typeName: def.type.name },
      }]);
    }
    if (!def.type && f.selections) {
      throw new GraphqlFailure([{
        message: `Selections can't be made on scalars (field '${f.name}' returns a scalar)`,
        locations: [{ line: f.line, column: f.column }],
        path: [...path, f.alias],
        extensions: { code: 'selectionMismatch', nodeName: `field '${f.name}'` },
      }]);
    }
    const args: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(f.args)) args[k] = v.kind === 'var' ? (Object.hasOwn(variables, v.name) ? variables[v.name] : undefined) : v.value;
    const value = def.resolve(parent, args);
    out[f.alias] = def.type && value !== null && value !== undefined ? execute(def.type, value, f.selections!, variables, [...path, f.alias]) : value ?? null;
  }
  return out;
}
