// The GraphQL engine (GitlabSchema over graphql-js): one operation or a multiplexed list, GitLab's
// limits (app/graphql/gitlab_schema.rb) and graphql-ruby's words for what it refuses. Loaded by
// the family's route on the first request, with graphql-js, so importing the package loads neither.
import {
  GraphQLError, Kind, Lexer, Source, TokenKind, buildSchema, execute, getNamedType, getOperationAST, isLeafType, parse, specifiedRules, validate,
  type ASTVisitor, type DocumentNode, type FieldNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode, type ValidationContext,
  FieldsOnCorrectTypeRule, ScalarLeafsRule, isObjectType, isInterfaceType, type FragmentDefinitionNode,
} from 'graphql';
import { json, type Reply } from '../../http/route.js';
import type { Context } from '../define.js';
import { SDL } from './schema.js';
import { Graph, Mutation, Query } from './model.js';

/** GitlabSchema's limits: complexity by who asks, depth by whether they signed in. */
export const LIMITS = { anonymousComplexity: 200, authenticatedComplexity: 250, adminComplexity: 300, anonymousDepth: 15, authenticatedDepth: 20 };
/** GitlabSchema's default_max_page_size: a connection's page when the query names neither first nor last. */
export const MAX_PAGE_SIZE = 100;

let built: GraphQLSchema | undefined;
export const schema = (): GraphQLSchema => (built ??= buildSchema(SDL));

interface Err {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}
type Answer = { data?: unknown; errors?: Err[] };

const fail = (message: string, extra: Omit<Err, 'message'> = {}): Answer => ({ errors: [{ message, ...extra }] });

/** POST (or GET) /api/graphql: a JSON array of operations answers an array, in order. */
export async function runGraphql(ctx: Context<{ query?: unknown; variables?: unknown; operationName?: unknown }>): Promise<Reply> {
  const batch = multiplexed(ctx);
  if (batch) {
    const out: Answer[] = [];
    for (const op of batch) out.push(typeof op === 'object' && op !== null && !Array.isArray(op) ? await runOne(ctx, op as Record<string, unknown>) : fail('No query string was present'));
    return json(out);
  }
  const { query, variables, operationName } = ctx.params;
  let vars: unknown = variables;
  if (typeof variables === 'string') {
    if (variables.trim() === '') vars = undefined;
    else {
      try {
        vars = JSON.parse(variables);
      } catch {
        return json({ errors: [{ message: 'Unexpected end of input' }] }, 422);
      }
    }
  }
  return json(await runOne(ctx, { query, variables: vars, operationName }));
}

/** The operations of a body that is a JSON array (GraphQL::Schema.multiplex), else undefined. */
function multiplexed(ctx: Context<unknown>): unknown[] | undefined {
  const type = (ctx.request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (ctx.body.length === 0 || !(type === 'application/json' || type.endsWith('+json'))) return undefined;
  let i = 0;
  while (i < ctx.body.length && (ctx.body[i] === 0x20 || ctx.body[i] === 0x0a || ctx.body[i] === 0x0d || ctx.body[i] === 0x09)) i++;
  if (ctx.body[i] !== 0x5b) return undefined; // '['
  const value = JSON.parse(new TextDecoder().decode(ctx.body)) as unknown; // the pipeline parsed it already
  return Array.isArray(value) ? value : undefined;
}

async function runOne(ctx: Context<unknown>, req: Record<string, unknown>): Promise<Answer> {
  const { query, operationName } = req;
  let variables = req.variables;
  if (typeof query !== 'string' || query.trim() === '') return fail('No query string was present');
  if (typeof variables === 'string') {
    try {
      variables = variables.trim() === '' ? {} : JSON.parse(variables);
    } catch {
      return fail('Unexpected end of input');
    }
  }
  if (variables === null || variables === undefined) variables = {};
  if (typeof variables !== 'object' || Array.isArray(variables)) return fail('Variables must be an object');
  const user = ctx.user;
  const maxDepth = user ? LIMITS.authenticatedDepth : LIMITS.anonymousDepth;
  const maxComplexity = !user ? LIMITS.anonymousComplexity : user.admin ? LIMITS.adminComplexity : LIMITS.authenticatedComplexity;
  // Nesting that graphql-js's recursive parser could not survive is refused before parsing.
  const nesting = braceNesting(query);
  if (nesting > 256) return fail(`Query has depth of ${nesting}, which exceeds max depth of ${maxDepth}`);
  const checked = checkedDocument(query);
  if ('errors' in checked) return { errors: checked.errors };
  const { doc } = checked;
  const s = schema();
  const name = typeof operationName === 'string' && operationName !== '' ? operationName : undefined;
  const op = getOperationAST(doc, name);
  if (!op) return fail(name ? `No operation named "${name}"` : 'An operation name is required');
  if (op.operation === 'subscription') return fail('Subscriptions are not served', { extensions: { code: 'missingTypeForRoot' } });
  const fragments = Object.fromEntries(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const depth = depthOf(op.selectionSet, fragments, new Set());
  if (depth > maxDepth) return fail(`Query has depth of ${depth}, which exceeds max depth of ${maxDepth}`);
  const complexity = complexityOf(s, op, fragments, variables as Record<string, unknown>);
  if (complexity > maxComplexity) return fail(`Query has complexity of ${complexity}, which exceeds max complexity of ${maxComplexity}`);
  const graph = new Graph(ctx);
  const root = op.operation === 'mutation' ? new Mutation(graph) : new Query(graph);
  const result = await execute({ schema: s, document: doc, rootValue: root, contextValue: graph, variableValues: variables as Record<string, unknown>, operationName: name });
  const out: Answer = {};
  if (result.errors?.length) out.errors = result.errors.map((e) => errorOf(e));
  out.data = result.data ?? null;
  return out.errors ? { errors: out.errors, data: out.data } : { data: out.data };
}

function errorOf(e: GraphQLError): Err {
  const out: Err = { message: e.message };
  if (e.locations) out.locations = e.locations.map((l) => ({ line: l.line, column: l.column }));
  if (e.path) out.path = [...e.path];
  if (e.extensions && Object.keys(e.extensions).length > 0) out.extensions = { ...e.extensions };
  return out;
}

/**
 * Parsed and validated documents by their text: clients send the same few queries again and
 * again, and validation is most of a small query's cost. Bounded; the oldest goes first.
 */
const documents = new Map<string, { doc: DocumentNode } | { errors: Err[] }>();
const DOCUMENTS_KEPT = 256;

function checkedDocument(query: string): { doc: DocumentNode } | { errors: Err[] } {
  const known = documents.get(query);
  if (known) return known;
  let checked: { doc: DocumentNode } | { errors: Err[] };
  try {
    const doc = parse(query, { maxTokens: 100_000 });
    const errors = validate(schema(), doc, RULES);
    checked = errors.length > 0 ? { errors: errors.map((e) => rubyError(e, doc)) } : { doc };
  } catch (e) {
    if (!(e instanceof GraphQLError)) throw e;
    checked = { errors: [parseError(query, e)] };
  }
  if (documents.size >= DOCUMENTS_KEPT) documents.delete(documents.keys().next().value!);
  documents.set(query, checked);
  return checked;
}

/** The deepest nesting of braces outside strings and comments: how deep the parser would recurse. */
function braceNesting(src: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x23) while (i < src.length && src[i] !== '\n') i++; // #
    else if (c === 0x22) { // "
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
    } else if (c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x7d) depth--;
  }
  return max;
}

/** graphql-ruby's token names, for its parse errors. */
const TOKENS: Partial<Record<TokenKind, string>> = {
  [TokenKind.BRACE_L]: 'LCURLY', [TokenKind.BRACE_R]: 'RCURLY', [TokenKind.PAREN_L]: 'LPAREN', [TokenKind.PAREN_R]: 'RPAREN', [TokenKind.COLON]: 'COLON',
  [TokenKind.BANG]: 'BANG', [TokenKind.BRACKET_L]: 'LBRACKET', [TokenKind.BRACKET_R]: 'RBRACKET', [TokenKind.EQUALS]: 'EQUALS', [TokenKind.DOLLAR]: 'VAR_SIGN',
  [TokenKind.NAME]: 'IDENTIFIER', [TokenKind.STRING]: 'STRING', [TokenKind.BLOCK_STRING]: 'STRING', [TokenKind.INT]: 'INT', [TokenKind.FLOAT]: 'FLOAT',
  [TokenKind.EOF]: 'EOF', [TokenKind.SPREAD]: 'ELLIPSIS', [TokenKind.AMP]: 'AMP', [TokenKind.PIPE]: 'PIPE', [TokenKind.AT]: 'DIR_SIGN',
};

/** `Parse error on "}" (RCURLY) at [1, 5]`, as graphql-ruby words a syntax error. */
function parseError(query: string, e: GraphQLError): Err {
  const at = e.locations?.[0] ?? { line: 1, column: 1 };
  let text = '';
  let kind = 'UNKNOWN_CHAR';
  try {
    const lexer = new Lexer(new Source(query));
    for (let t = lexer.advance(); ; t = lexer.advance()) {
      if (t.line > at.line || (t.line === at.line && t.column >= at.column)) {
        kind = TOKENS[t.kind] ?? 'UNKNOWN_CHAR';
        text = t.kind === TokenKind.EOF ? '' : t.value ?? t.kind;
        break;
      }
      if (t.kind === TokenKind.EOF) break;
    }
  } catch {
    // The lexer stops at the character it cannot read: that character is the error.
    const lines = query.split('\n');
    text = lines[at.line - 1]?.[at.column - 1] ?? '';
  }
  return { message: `Parse error on ${JSON.stringify(text)} (${kind}) at [${at.line}, ${at.column}]`, locations: [{ line: at.line, column: at.column }] };
}

/** Where a field is, as graphql-ruby's validation errors name it: the operation, then the aliases. */
function fieldPath(ancestors: readonly unknown[], node: FieldNode): string[] {
  const path: string[] = [];
  for (const a of ancestors) {
    if (typeof a !== 'object' || a === null || Array.isArray(a)) continue;
    const n = a as { kind?: string; operation?: string; name?: { value: string }; alias?: { value: string } };
    if (n.kind === Kind.OPERATION_DEFINITION) path.push(n.name ? `${n.operation} ${n.name.value}` : n.operation!);
    else if (n.kind === Kind.FRAGMENT_DEFINITION) path.push(`fragment ${n.name!.value}`);
    else if (n.kind === Kind.FIELD) path.push((n.alias ?? n.name)!.value);
  }
  path.push((node.alias ?? node.name).value);
  return path;
}

/** graphql-ruby's FieldsAreDefinedOnType and FieldsHaveAppropriateSelections, with their words and codes. */
function RubyFieldsRule(context: ValidationContext): ASTVisitor {
  return {
    Field(node, _key, _parent, _path, ancestors) {
      const parent = context.getParentType();
      if (!parent) return;
      const def = context.getFieldDef();
      const name = node.name.value;
      const loc = node.loc ? [{ line: node.loc.startToken.line, column: node.loc.startToken.column }] : [];
      const path = fieldPath(ancestors, node);
      if (!def) {
        context.reportError(new GraphQLError(`Field '${name}' doesn't exist on type '${parent.name}'`, {
          nodes: node, extensions: { code: 'undefinedField', typeName: parent.name, fieldName: name, __path: path, __loc: loc },
        }));
        return;
      }
      const type = getNamedType(def.type);
      if (isLeafType(type) && node.selectionSet) {
        context.reportError(new GraphQLError(`Selections can't be made on scalars (field '${name}' returns ${type.name} but has selections [${node.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? `"${s.name.value}"` : '')).join(', ')}])`, {
          nodes: node, extensions: { code: 'selectionMismatch', nodeName: `field '${name}'`, typeName: type.name, __path: path, __loc: loc },
        }));
      } else if (!isLeafType(type) && !node.selectionSet) {
        context.reportError(new GraphQLError(`Field must have selections (field '${name}' returns ${type.name} but has no selections. Did you mean '${name} { ... }'?)`, {
          nodes: node, extensions: { code: 'selectionMismatch', nodeName: `field '${name}'`, typeName: type.name, __path: path, __loc: loc },
        }));
      }
    },
  };
}

const RULES = [...specifiedRules.filter((r) => r !== FieldsOnCorrectTypeRule && r !== ScalarLeafsRule), RubyFieldsRule];

/** A validation error with graphql-ruby's words where graphql-js words it differently. */
function rubyError(e: GraphQLError, doc: DocumentNode): Err {
  const ext = (e.extensions ?? {}) as Record<string, unknown>;
  if (ext.__path) {
    const { __path, __loc, ...rest } = ext;
    return { message: e.message, locations: __loc as Err['locations'], path: __path as string[], extensions: rest };
  }
  const out = errorOf(e);
  const opName = (): string => {
    const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    return op?.name ? `${op.operation} '${op.name.value}'` : `anonymous ${op?.operation ?? 'query'}`;
  };
  let m: RegExpMatchArray | null;
  if ((m = e.message.match(/^Unknown argument "(\w+)" on field "\w+\.(\w+)"\./))) {
    out.message = `Field '${m[2]}' doesn't accept argument '${m[1]}'`;
    out.extensions = { code: 'argumentNotAccepted', name: m[2], typeName: 'Field', argumentName: m[1] };
  } else if ((m = e.message.match(/^Field "(\w+)" argument "(\w+)" of type ".*" is required, but it was not provided\./))) {
    out.message = `Field '${m[1]}' is missing required arguments: ${m[2]}`;
    out.extensions = { code: 'missingRequiredArguments', className: 'Field', name: m[1], arguments: m[2] };
  } else if ((m = e.message.match(/^Variable "\$(\w+)" is not defined/))) {
    out.message = `Variable $${m[1]} is used by ${opName()} but not declared`;
    out.extensions = { code: 'variableNotDefined', variableName: m[1] };
  } else if ((m = e.message.match(/^Variable "\$(\w+)" is never used/))) {
    out.message = `Variable $${m[1]} is declared by ${opName()} but not used`;
    out.extensions = { code: 'variableNotUsed', variableName: m[1] };
  }
  return out;
}

function depthOf(set: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, seen: Set<string>): number {
  let max = 0;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) max = Math.max(max, 1 + (s.selectionSet ? depthOf(s.selectionSet, fragments, seen) : 0));
    else if (s.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(s.selectionSet, fragments, seen));
    else {
      const f = Object.hasOwn(fragments, s.name.value) ? fragments[s.name.value] : undefined;
      if (f && !seen.has(f.name.value)) max = Math.max(max, depthOf(f.selectionSet, fragments, new Set([...seen, f.name.value])));
    }
  }
  return max;
}

/**
 * GitLab's field complexity: 1 for a field plus its selections; a connection adds 1% of that per
 * item it may load (`first`, `last`, or the default page of 100), as BaseResolver's
 * complexity_multiplier does. Introspection is GitLab's cached exception and costs nothing here.
 */
function complexityOf(s: GraphQLSchema, op: OperationDefinitionNode, fragments: Record<string, FragmentDefinitionNode>, variables: Record<string, unknown>): number {
  const argValue = (f: FieldNode, name: string): unknown => {
    const a = f.arguments?.find((x) => x.name.value === name);
    if (!a) return undefined;
    if (a.value.kind === Kind.INT) return Number(a.value.value);
    if (a.value.kind === Kind.VARIABLE) return Object.hasOwn(variables, a.value.name.value) ? variables[a.value.name.value] : undefined;
    return undefined;
  };
  const walk = (set: SelectionSetNode, typeName: string, seen: Set<string>): number => {
    let total = 0;
    const type = s.getType(typeName);
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        const fields = type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : {};
        const def = Object.hasOwn(fields, sel.name.value) ? fields[sel.name.value] : undefined;
        const child = def ? getNamedType(def.type) : undefined;
        const inner = sel.selectionSet && child ? walk(sel.selectionSet, child.name, seen) : 0;
        let cost = 1 + inner;
        if (child?.name.endsWith('Connection')) {
          const sizes = [argValue(sel, 'first'), argValue(sel, 'last'), MAX_PAGE_SIZE].filter((n): n is number => typeof n === 'number' && n >= 0);
          cost += cost * Math.min(...sizes) * 0.01;
        }
        total += Math.trunc(cost);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) total += walk(sel.selectionSet, sel.typeCondition?.name.value ?? typeName, seen);
      else {
        const f = Object.hasOwn(fragments, sel.name.value) ? fragments[sel.name.value] : undefined;
        if (f && !seen.has(f.name.value)) total += walk(f.selectionSet, f.typeCondition.name.value, new Set([...seen, f.name.value]));
      }
    }
    return total;
  };
  const root = op.operation === 'mutation' ? 'Mutation' : 'Query';
  return walk(op.selectionSet, root, new Set());
}
