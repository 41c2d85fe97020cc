// Markdown as GitLab's Banzai pipeline renders a wiki page: CommonMark's `data-sourcepos`
// ("startLine:startCol-endLine:endCol", 1-based, columns in bytes as comrak counts them) on each
// block and on strong, emphasis, strikethrough, code spans, links and images; `dir="auto"` on the
// top-level p, h1-h6, ol, ul, blockquote and table (Banzai::Filter::SetDirectionFilter); the
// anchor TableOfContentsFilter puts in each heading; and `rel`/`target` on external links
// (ExternalLinkFilter). markdown-it parses; its block and inline rules are wrapped to learn where
// each token starts in the source.
import createMarkdownIt, { type MarkdownIt, type Token } from 'markdown-it';
interface Range {
  start: number;
  end: number;
}

/** Where a block token starts in the source (an offset into the normalised text). */
const blockStart = new WeakMap<Token, number>();
/** The span of an inline token in its inline content: [start, end). */
const inlineSpan = new WeakMap<Token, Range>();

const DIRECTED = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ol', 'ul', 'blockquote', 'table']);
const BLOCKS = new Set(['paragraph_open', 'heading_open', 'bullet_list_open', 'ordered_list_open', 'list_item_open', 'blockquote_open', 'table_open', 'tr_open', 'hr', 'fence', 'code_block']);

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).length;

interface RuleList {
  __rules__: { fn: (...args: never[]) => boolean }[];
  __cache__: unknown;
}

function wrapBlockRules(md: MarkdownIt): void {
  const ruler = md.block.ruler as unknown as RuleList;
  for (const rule of ruler.__rules__) {
    const fn = rule.fn as unknown as (state: { tokens: Token[]; bMarks: number[]; tShift: number[] }, startLine: number, endLine: number, silent: boolean) => boolean;
    rule.fn = ((state, startLine, endLine, silent) => {
      const first = state.tokens.length;
      const at = state.bMarks[startLine]! + state.tShift[startLine]!;
      const ok = fn(state, startLine, endLine, silent);
      if (ok && !silent) for (let i = first; i < state.tokens.length; i++) if (!blockStart.has(state.tokens[i]!)) blockStart.set(state.tokens[i]!, at);
      return ok;
    }) as typeof fn as never;
  }
  ruler.__cache__ = null;
}

function wrapInlineRules(md: MarkdownIt): void {
  const ruler = md.inline.ruler as unknown as RuleList;
  for (const rule of ruler.__rules__) {
    const fn = rule.fn as unknown as (state: { tokens: Token[]; pos: number; pending: string }, silent: boolean) => boolean;
    const perChar = (rule as unknown as { name: string }).name === 'emphasis';
    rule.fn = ((state, silent) => {
      // The first token a rule pushes may be the text pending before it, which is not its own.
      const first = state.tokens.length + (state.pending ? 1 : 0);
      const start = state.pos;
      const ok = fn(state, silent);
      if (ok && !silent) {
        for (let i = first; i < state.tokens.length; i++) {
          const t = state.tokens[i]!;
          if (inlineSpan.has(t)) continue;
          // Emphasis pushes one token per delimiter character.
          inlineSpan.set(t, perChar ? { start: start + (i - first), end: start + (i - first) + 1 } : { start, end: state.pos });
        }
      }
      return ok;
    }) as typeof fn as never;
  }
  ruler.__cache__ = null;
}

/** The source's lines and where each starts. */
class Source {
  readonly lines: string[];
  readonly starts: number[] = [];
  constructor(readonly text: string) {
    this.lines = text.split('\n');
    let at = 0;
    for (const line of this.lines) {
      this.starts.push(at);
      at += line.length + 1;
    }
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** `line:col` of an offset, the column in bytes. */
  pos(offset: number): string {
    const line = this.lineOf(offset);
    return `${line + 1}:${byteLength(this.lines[line]!.slice(0, offset - this.starts[line]!)) + 1}`;
  }

  /** `line:col` of the last byte of the character at an offset. */
  last(offset: number): string {
    const line = this.lineOf(offset);
    return `${line + 1}:${byteLength(this.lines[line]!.slice(0, offset - this.starts[line]! + 1))}`;
  }

  /** `line:col` of the last character of the last non-blank line in [from, to). */
  endOf(from: number, to: number): string {
    let line = Math.max(from, Math.min(to, this.lines.length) - 1);
    while (line > from && this.lines[line]!.trim() === '') line--;
    const text = this.lines[line]!.trimEnd();
    return `${line + 1}:${Math.max(byteLength(text), 1)}`;
  }
}

function setFirst(token: Token, name: string, value: string): void {
  token.attrs = [[name, value], ...(token.attrs ?? []).filter(([k]) => k !== name)];
}

/** Where a list item's marker is: the first non-space at or after its list's column, less up to three spaces. */
function itemStart(src: Source, line: number, listStart: number): number {
  const listLine = src.lineOf(listStart);
  const col = listStart - src.starts[listLine]!;
  let from = col;
  while (from > 0 && col - from < 3 && src.lines[listLine]![from - 1] === ' ') from--;
  const text = src.lines[line] ?? '';
  let i = Math.min(from, text.length);
  while (i < text.length && text[i] === ' ') i++;
  return src.starts[line]! + i;
}

/** Each character of an inline token's content, matched in order to its offset in the source. */
function alignContent(src: Source, content: string, from: number, to: number): number[] {
  const out: number[] = [];
  let j = from;
  for (let i = 0; i < content.length; i++) {
    let k = j;
    while (k < to && src.text[k] !== content[i]) k++;
    if (k < to) {
      out.push(k);
      j = k + 1;
    } else out.push(Math.min(j, to - 1));
  }
  return out;
}

const PUNCTUATION = /[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu;

/** TableOfContentsFilter's id: the text downcased, punctuation dropped, spaces as dashes; repeats numbered. */
function anchorId(text: string, seen: Map<string, number>): string {
  const base = text.toLowerCase().replace(PUNCTUATION, '').replace(/ /g, '-').replace(/-+/g, '-');
  const n = seen.get(base) ?? 0;
  seen.set(base, n + 1);
  return n > 0 ? `${base}-${n}` : base;
}

function annotateInline(src: Source, inline: Token, from: number, to: number): void {
  const children = inline.children ?? [];
  const offsets = alignContent(src, inline.content, from, to);
  const at = (i: number) => offsets[Math.max(0, Math.min(i, offsets.length - 1))]!;
  const open: Token[] = [];
  let cursor = 0;
  for (const t of children) {
    const span = inlineSpan.get(t);
    if (span) cursor = span.end;
    if (t.nesting === 1) open.push(t);
    if (t.nesting === -1) {
      const o = open.pop();
      if (!o || o.tag !== t.tag) continue;
      const os = inlineSpan.get(o);
      const cs = inlineSpan.get(t);
      if (o.type === 'strong_open' && os && cs) setFirst(o, 'data-sourcepos', `${src.pos(at(os.start - 1))}-${src.last(at(cs.start + 1))}`);
      else if (o.type === 'em_open' && os && cs) setFirst(o, 'data-sourcepos', `${src.pos(at(os.start))}-${src.last(at(cs.start))}`);
      else if (o.type === 's_open' && os && cs) setFirst(o, 'data-sourcepos', `${src.pos(at(os.start))}-${src.last(at(cs.end - 1))}`);
      else if (o.type === 'link_open') {
        let range = os;
        const text = children[children.indexOf(o) + 1]?.content ?? '';
        // The inline linkify rule starts at the `:` after the scheme and ends with the URL.
        if (range && o.markup === 'linkify') range = { start: Math.max(0, range.end - text.length), end: range.end };
        // A link the core rule made from a bare `www.` address: find its text.
        if (!range) {
          const found = inline.content.indexOf(text, cursor);
          if (text && found >= 0) range = { start: found, end: found + text.length };
        }
        if (range) setFirst(o, 'data-sourcepos', `${src.pos(at(range.start))}-${src.last(at(range.end - 1))}`);
        if (/^https?:\/\//i.test(String(o.attrGet('href') ?? ''))) {
          o.attrSet('rel', 'nofollow noreferrer noopener');
          o.attrSet('target', '_blank');
        }
      }
    }
    if ((t.type === 'code_inline' || t.type === 'image') && span) setFirst(t, 'data-sourcepos', `${src.pos(at(span.start))}-${src.last(at(span.end - 1))}`);
  }
}

function annotate(state: { src: string; tokens: Token[] }): void {
  const src = new Source(state.src);
  const lists: Token[] = [];
  const anchors = new Map<string, number>();
  let row: Token | undefined;
  let table: Token | undefined;
  state.tokens.forEach((t, index) => {
    if (t.type === 'bullet_list_open' || t.type === 'ordered_list_open') lists.push(t);
    if (t.type === 'bullet_list_close' || t.type === 'ordered_list_close') lists.pop();
    if (t.type === 'tr_open') row = t;
    if (t.type === 'table_open') table = t;
    if (t.type === 'inline' && t.children) {
      const parent = state.tokens[index - 1];
      const map = t.map ?? row?.map;
      const from = parent && t.map ? blockStart.get(parent) : map ? src.starts[map[0]] : undefined;
      if (map && from !== undefined) {
        const last = Math.min(map[1], src.lines.length) - 1;
        annotateInline(src, t, from, src.starts[last]! + src.lines[last]!.length);
      }
      if (parent?.type === 'heading_open') {
        const id = anchorId(t.children.filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join(''), anchors);
        const a = new (t.constructor as new (type: string, tag: string, nesting: number) => Token)('html_inline', '', 0);
        a.content = `&#x000A;<a href="#${id}" aria-hidden="true" class="anchor" id="user-content-${id}"></a>`;
        t.children.unshift(a);
      }
      return;
    }
    if (!BLOCKS.has(t.type) || !t.map || t.hidden) return;
    let start = blockStart.get(t);
    // A row starts in its own line, at the table's column.
    if (t.type === 'tr_open' && table?.map && start !== undefined) start = src.starts[t.map[0]]! + (start - src.starts[table.map[0]]!);
    const list = lists[lists.length - 1];
    if (t.type === 'list_item_open' && list?.map && t.map[0] !== list.map[0]) start = itemStart(src, t.map[0], blockStart.get(list) ?? src.starts[list.map[0]]!);
    if (start === undefined) return;
    setFirst(t, 'data-sourcepos', `${src.pos(start)}-${src.endOf(t.map[0], t.map[1])}`);
    if (t.level === 0 && DIRECTED.has(t.tag)) t.attrSet('dir', 'auto');
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&${({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' })[c]};`);

export function markdownRenderer(): (text: string) => string {
  const md = createMarkdownIt({ html: false, linkify: true });
  wrapBlockRules(md);
  wrapInlineRules(md);
  md.core.ruler.push('sourcepos', (state) => annotate(state as unknown as { src: string; tokens: Token[] }));
  // Code blocks: the position on `pre`, the language as a class of `code`.
  const code = (tokens: Token[], i: number) => {
    const t = tokens[i]!;
    const lang = t.info.trim().split(/\s+/)[0] ?? '';
    const pos = t.attrGet('data-sourcepos');
    return `<pre${pos ? ` data-sourcepos="${pos}"` : ''}><code${lang ? ` class="language-${escapeHtml(lang)}"` : ''}>${escapeHtml(t.content)}</code></pre>\n`;
  };
  md.renderer.rules.fence = code;
  md.renderer.rules.code_block = code;
  return (text) => md.render(text).replace(/\n$/, '');
}
