// The command scanner (Gitlab::QuickActions::Extractor): GitLab's own extractor examples, and a
// property against a plain model for texts without blocks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanCommands } from '../src/families/issuables/quick-actions.js';

const KNOWN = new Set(['reopen', 'open', 'assign', 'labels', 'power', 'close']);
const scan = (text: string) => {
  const r = scanCommands(text, (n) => KNOWN.has(n));
  return [r.content, r.commands.map((c) => (c.arg === '' ? [c.name] : [c.name, c.arg]))] as const;
};

describe('scanCommands, on GitLab’s extractor examples', () => {
  it('takes commands at the start of a line, with or without arguments, anywhere in the text', () => {
    expect(scan('/reopen\nworld')).toEqual(['world', [['reopen']]]);
    expect(scan('hello\n/reopen\nworld')).toEqual(['hello\nworld', [['reopen']]]);
    expect(scan('hello\n/reopen')).toEqual(['hello', [['reopen']]]);
    expect(scan('hello\nworld /reopen')).toEqual(['hello\nworld /reopen', []]);
    expect(scan('/assign @joe / @jane\nworld')).toEqual(['world', [['assign', '@joe / @jane']]]);
    expect(scan('hello\n/assign@joe\nworld')).toEqual(['hello\n/assign@joe\nworld', []]);
    expect(scan('hello\n/labels ~foo ~"bar baz" label\nworld')).toEqual(['hello\nworld', [['labels', '~foo ~"bar baz" label']]]);
    expect(scan('hello\n/PoWer @user.name %9.10 ~"bar baz.2"\nworld')).toEqual(['hello\nworld', [['power', '@user.name %9.10 ~"bar baz.2"']]]);
    expect(scan('hello\n/power @user.name %9.10 ~"bar baz.2" label\nworld\n/reopen')).toEqual(['hello\nworld', [['power', '@user.name %9.10 ~"bar baz.2" label'], ['reopen']]]);
    expect(scan('Fixes #123')).toEqual(['Fixes #123', []]);
  });

  it('leaves commands in code blocks, quotes, HTML and inline code, and is not confused by them', () => {
    expect(scan('/reopen\n`some inline code`\n/labels ~a\n`more inline code`')).toEqual(['`some inline code`\n`more inline code`', [['reopen'], ['labels', '~a']]]);
    expect(scan('/reopen\n```\nsome blockcode\n```\n/labels ~a\n```\nmore blockcode\n```')).toEqual(['```\nsome blockcode\n```\n```\nmore blockcode\n```', [['reopen'], ['labels', '~a']]]);
    for (const msg of [
      'Hello\r\n```\r\nThis is some text\r\n/close\r\n/assign @user\r\n```\r\n\r\nWorld',
      'Hello\r\n>>>\r\nThis is some text\r\n/close\r\n/assign @user\r\n>>>\r\n\r\nWorld',
      'Hello\r\n<div>\r\nThis is some text\r\n/close\r\n/assign @user\r\n</div>\r\n\r\nWorld',
      'Hello\r\n`\r\nThis is some text\r\n/close\r\n/assign @user\r\n`\r\n\r\nWorld',
      'Hello `This is some text\r\n/close\r\n/assign @user\r\n`\r\n\r\nWorld',
      '`This is some text\r\n/close\r\n/assign @user\r\n`\r\n\r\nWorld',
    ]) expect(scan(msg)).toEqual([msg.replace(/\r/g, ''), []]);
  });

  it('is linear: a text of many lines and backticks is scanned at once', () => {
    expect(scan('`' + '\n'.repeat(100_000))[1]).toEqual([]);
    expect(scan(`${'text `\n'.repeat(50_000)}/close`)[1]).toEqual([['close']]);
  });
});

describe('scanCommands against a plain model', () => {
  // Lines without blocks: a command line is taken with the blank lines after it (not the last line), the rest is kept.
  const line = fc.oneof(
    fc.constantFrom('/close', '/reopen', '/assign @joe', '/CLOSE', '/unknown', ' /close', '/close@x', 'text', 'more text /close', '', '   '),
    fc.string({ unit: fc.constantFrom('a', ' ', '/', 'c', 'l', 'o', 's', 'e') }),
  );
  it('takes exactly the command lines and the blank lines that follow them', () => {
    fc.assert(fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
      const commands: string[][] = [];
      const kept: string[] = [];
      let after = false;
      lines.forEach((l, i) => {
        const m = /^\/([a-zA-Z0-9_]+)(?: (.*)|\s*)$/.exec(l);
        if (m && KNOWN.has(m[1]!.toLowerCase())) {
          commands.push(m[2]?.trim() ? [m[1]!.toLowerCase(), m[2].trim()] : [m[1]!.toLowerCase()]);
          after = true;
          return;
        }
        if (after && l.trim() === '' && i < lines.length - 1) return;
        after = false;
        kept.push(l);
      });
      expect(scan(lines.join('\n'))).toEqual([kept.join('\n').trimEnd(), commands]);
    }));
  });
});
