// The CI/CD expression language (lib/gitlab/ci/pipeline/expression/**, its specs): syntax,
// precedence, Ruby's `&&`/`||`, RE2 regexes with flags, null, and regexes held in variables.
import { describe, expect, it } from 'vitest';
import { holds, parseExpression } from '../src/families/ci/config/index.js';

const VARS = { BRANCH: 'main', EMPTY: '', TAG: 'v1.2.3', PATTERN: '/^ma/', PLAIN: 'main', UPPER: 'MAIN', MULTI: 'a\nmain' };

const truth = (text: string, vars: Record<string, string> = VARS) => {
  const e = parseExpression(text);
  expect(e, `${text} should parse`).not.toBeNull();
  return holds(e!, vars);
};

describe('statements that hold or not', () => {
  const table: [string, boolean][] = [
    ['$BRANCH == "main"', true],
    ["$BRANCH == 'main'", true],
    ['$BRANCH != "main"', false],
    ['"main" == $BRANCH', true],
    ['$BRANCH == $PLAIN', true],
    ['$MISSING == null', true],
    ['$EMPTY == null', false],
    ['$EMPTY == ""', true],
    ['$BRANCH', true],
    ['$EMPTY', false],
    ['$MISSING', false],
    ['$BRANCH =~ /^ma/', true],
    ['$BRANCH =~ /^MA/', false],
    ['$BRANCH =~ /^MA/i', true],
    ['$UPPER =~ /^ma/i', true],
    ['$MULTI =~ /^main$/', false],
    ['$MULTI =~ /^main$/m', true],
    ['$BRANCH !~ /^ma/', false],
    ['$TAG =~ /^v\\d+\\.\\d+/', true],
    ['$MISSING =~ /^$/', true],
    ['$BRANCH =~ $PATTERN', true],
    ['$BRANCH =~ $PLAIN', false],
    ['$BRANCH !~ $PLAIN', false],
    ['$BRANCH =~ $MISSING', false],
    ['$BRANCH !~ $MISSING', true],
    ['$BRANCH == "main" && $TAG', true],
    ['$BRANCH == "x" || $TAG == "v1.2.3"', true],
    ['$BRANCH == "x" || $TAG == "x" && $BRANCH', false],
    ['$BRANCH == "main" || $TAG == "x" && $MISSING', true],
    ['($BRANCH == "main" || $TAG == "x") && $MISSING', false],
    // Ruby: an empty string is true to && and ||, so these return it, and the statement is empty.
    ['$EMPTY || $BRANCH', false],
    ['$EMPTY && $BRANCH', true],
    ['$MISSING || $BRANCH', true],
    ['$BRANCH == "a/b"', false],
    ['$TAG =~ /v1\\/2/', false],
    ['null', false],
    ['"text"', true],
    ['""', false],
  ];
  it.each(table)('%s is %s', (text, expected) => {
    expect(truth(text)).toBe(expected);
  });
});

describe('statements GitLab refuses', () => {
  it.each([
    ['$BRANCH ==', 'an operator without its right side'],
    ['== "main"', 'an operator without its left side'],
    ['$BRANCH "main"', 'two values in a row'],
    ['($BRANCH == "main"', 'an unclosed parenthesis'],
    ['$BRANCH == "main")', 'an unopened parenthesis'],
    ['$BRANCH = "main"', 'an unknown operator'],
    ['$BRANCH =~ /a/', 'a one-character pattern (Lexeme::Pattern needs two)'],
    ['$BRANCH =~ /(/', 'a pattern RE2 refuses'],
    ['$BRANCH =~ /(?<=a)b/', 'a lookbehind, which RE2 lacks'],
    ['', 'nothing'],
    [Array.from({ length: 51 }, () => '$A').join(' && '), 'more than 100 tokens'],
  ])('%s (%s)', (text) => {
    expect(parseExpression(text)).toBeNull();
  });
});
