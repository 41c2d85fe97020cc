// GitLab's CI/CD expression language (lib/gitlab/ci/pipeline/expression/**): what `rules:if`,
// `only:variables` and `workflow:rules:if` are written in. Lexemes: `$VARIABLE`, "string" or
// 'string' (no escapes), `/regex/flags` (RE2, flags i m s U), `null`, `==`, `!=`, `=~`, `!~`,
// `&&`, `||` and parentheses; `&&` binds tighter than `||`, comparisons tighter than both.
// Evaluation follows Ruby's: `&&` and `||` return one of their operands (a string, even an empty
// one, is true to them), and a statement holds when its value is present (not null, not false,
// not an empty string).
import type { RE2JS } from 're2js';
import { lazyModule } from '../../../core/lazy.js';

/** re2js, loaded at the first pattern compiled (~10 ms of CPU the package's import does not pay). */
const re2js = lazyModule('re2js', () => import('re2js'));
import { MAX_PATTERN_PROGRAM } from '../../../policy/pattern.js';

export type Value = string | null | boolean | Pattern;

/** A compiled regular expression literal (Gitlab::UntrustedRegexp). */
export class Pattern {
  constructor(readonly source: string, private readonly re: RE2JS) {}
  /** `scan(text).present?`: whether it matches anywhere in the text. */
  test(text: string): boolean {
    return this.re.test(text);
  }
}

export type Expr =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'pattern'; value: Pattern }
  | { kind: 'null' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||'; left: Expr; right: Expr };

type Token =
  | { t: 'value'; expr: Expr }
  | { t: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { t: '(' }
  | { t: ')' };

/** Lexer::MAX_TOKENS. */
const MAX_TOKENS = 100;
const PRECEDENCE: Record<string, number> = { '==': 10, '!=': 10, '=~': 10, '!~': 10, '&&': 11, '||': 12 };

const VARIABLE = /^\$(\w+)/;
const STRING = /^(?:"([^"]*)"|'([^']*)')/;
// Lexeme::Pattern's own expression (so `/a/`, one character, is no pattern to GitLab either).
const PATTERN = /^\/([^/]|\\\/)+[^\\]\/[ismU]*/;

/** `/regex/flags` as GitLab fabricates it: RE2 with the flags inline. Null when RE2 refuses it. */
export function fabricatePattern(text: string): Pattern | null {
  const m = /^\/(.*)\/([ismU]*)$/s.exec(text);
  if (!m) return null;
  return compilePattern(m[1]!, m[2]!);
}

function compilePattern(body: string, flags: string): Pattern | null {
  const source = flags ? `(?${flags})${body}` : body;
  try {
    const re = re2js().RE2JS.compile(source);
    if (re.programSize() > MAX_PATTERN_PROGRAM) return null;
    return new Pattern(source, re);
  } catch {
    return null;
  }
}

function lex(text: string): Token[] | null {
  const tokens: Token[] = [];
  let s = text;
  while (true) {
    s = s.replace(/^\s+/, '');
    if (s === '') break;
    if (tokens.length >= MAX_TOKENS) return null;
    let m: RegExpExecArray | null;
    if ((m = VARIABLE.exec(s))) {
      tokens.push({ t: 'value', expr: { kind: 'variable', name: m[1]! } });
    } else if ((m = STRING.exec(s))) {
      tokens.push({ t: 'value', expr: { kind: 'string', value: m[1] ?? m[2] ?? '' } });
    } else if ((m = PATTERN.exec(s))) {
      const p = fabricatePattern(m[0].replace(/\\\//g, '/'));
      if (!p) return null;
      tokens.push({ t: 'value', expr: { kind: 'pattern', value: p } });
    } else if ((m = /^null/.exec(s))) {
      tokens.push({ t: 'value', expr: { kind: 'null' } });
    } else if ((m = /^(true|false)/.exec(s))) {
      tokens.push({ t: 'value', expr: { kind: 'boolean', value: m[1] === 'true' } });
    } else if ((m = /^(==|!=|=~|!~|&&|\|\|)/.exec(s))) {
      tokens.push({ t: 'op', op: m[1] as '==' });
    } else if ((m = /^\(/.exec(s))) {
      tokens.push({ t: '(' });
    } else if ((m = /^\)/.exec(s))) {
      tokens.push({ t: ')' });
    } else {
      return null;
    }
    s = s.slice(m[0].length);
  }
  return tokens;
}

const parsed = new Map<string, Expr | null>();

/** Parses a statement; null when GitLab would call its syntax invalid. Statements are immutable, so kept. */
export function parseExpression(text: string): Expr | null {
  const hit = parsed.get(text);
  if (hit !== undefined) return hit;
  const e = parseStatement(text);
  if (parsed.size >= 2000) parsed.clear();
  parsed.set(text, e);
  return e;
}

function parseStatement(text: string): Expr | null {
  const tokens = lex(text);
  if (!tokens || tokens.length === 0) return null;
  // Shunting-yard, as GitLab's Parser turns the tokens into reverse Polish notation.
  const output: Expr[] = [];
  const ops: Token[] = [];
  const reduce = (): boolean => {
    const op = ops.pop();
    if (!op || op.t !== 'op') return false;
    const right = output.pop();
    const left = output.pop();
    if (!left || !right) return false;
    output.push({ kind: 'op', op: op.op, left, right });
    return true;
  };
  let expectValue = true;
  for (const tok of tokens) {
    if (tok.t === 'value') {
      if (!expectValue) return null;
      output.push(tok.expr);
      expectValue = false;
    } else if (tok.t === 'op') {
      if (expectValue) return null;
      while (ops.length) {
        const top = ops[ops.length - 1]!;
        if (top.t !== 'op' || PRECEDENCE[top.op]! > PRECEDENCE[tok.op]!) break;
        if (!reduce()) return null;
      }
      ops.push(tok);
      expectValue = true;
    } else if (tok.t === '(') {
      if (!expectValue) return null;
      ops.push(tok);
    } else {
      if (expectValue) return null;
      while (ops.length && ops[ops.length - 1]!.t !== '(') if (!reduce()) return null;
      if (!ops.length) return null;
      ops.pop();
    }
  }
  if (expectValue) return null;
  while (ops.length) if (!reduce()) return null;
  return output.length === 1 ? output[0]! : null;
}

const truthy = (v: Value): boolean => v !== null && v !== false;

export type Variables = Readonly<Record<string, string>>;

function evaluate(e: Expr, vars: Variables): Value {
  switch (e.kind) {
    case 'variable':
      return Object.hasOwn(vars, e.name) ? vars[e.name]! : null;
    case 'string':
      return e.value;
    case 'pattern':
      return e.value;
    case 'null':
      return null;
    case 'boolean':
      return e.value;
    case 'op': {
      if (e.op === '&&') {
        const l = evaluate(e.left, vars);
        return truthy(l) ? evaluate(e.right, vars) : l;
      }
      if (e.op === '||') {
        const l = evaluate(e.left, vars);
        return truthy(l) ? l : evaluate(e.right, vars);
      }
      const l = evaluate(e.left, vars);
      const r = evaluate(e.right, vars);
      if (e.op === '==' || e.op === '!=') {
        const eq = l instanceof Pattern || r instanceof Pattern ? l === r : l === r;
        return e.op === '==' ? eq : !eq;
      }
      const matched = matches(l, r);
      if (matched === null) return e.op !== '=~';
      return e.op === '=~' ? matched : !matched;
    }
  }
}

/** An evaluation error (Expression::RuntimeError): the whole statement is then false. */
class EvaluationError extends Error {}

/**
 * `=~` and `!~` (Lexeme::Matches): nothing on the right is false (`!~`: true); a variable's value
 * is read as a `/regex/`, and one that is not makes the statement fail.
 */
function matches(text: Value, right: Value): boolean | null {
  if (right === null || right === false) return null;
  let re: Pattern | null = null;
  if (right instanceof Pattern) re = right;
  else if (typeof right === 'string') re = fabricatePattern(right);
  if (!re) throw new EvaluationError('Invalid regular expression!');
  const s = text === null || text === false ? '' : text === true ? 'true' : text instanceof Pattern ? text.source : text;
  return re.test(s);
}

/** Statement#truthful?: the value is present. */
export function holds(e: Expr, vars: Variables): boolean {
  try {
    const v = evaluate(e, vars);
    return v !== null && v !== false && v !== '';
  } catch (err) {
    if (err instanceof EvaluationError) return false;
    throw err;
  }
}
