// The emoji names an award may have: GitLab's emoji names (emoji-names.ts, from GitLab's
// fixtures/emojis/digests.json) and their aliases (emoji-aliases.ts, from aliases.json), loaded
// with the first emulator (the family's `load`) and made into lookups on first use, so that a
// world which never awards an emoji never builds them.
//
// GitLab validates an award's name with TanukiEmoji.find_by_alpha_code (Gitlab::EmojiNameValidator)
// and stores TanukiEmoji.find_by_alpha_code(name)&.name || name (AwardEmojis::BaseService). The
// lookup is by `:alpha_code:`: TanukiEmoji::Character.format_alpha_code keeps a name that already
// holds a `:code:` as it is and wraps any other in colons, so `thumbsup`, `+1` and `:+1:` are all
// thumbsup, while `THUMBSUP`, `x:thumbsup:` and `::thumbsup::` are nothing.
let packed: string | undefined;
let table: (() => Map<string, string>) | undefined;
let names: Set<string> | undefined;
let aliases: Map<string, string> | undefined;

export async function loadEmojiNames(): Promise<void> {
  packed ??= (await import('./emoji-names.js')).PACKED;
  table ??= (await import('./emoji-aliases.js')).aliasTable;
}

const TONES = ['light', 'medium_light', 'medium', 'medium_dark', 'dark'];

/**
 * emoji-names.ts's packed list: `word/t` is word and word_tone1 … word_tone5, `word/s` is word
 * and word_light_skin_tone … word_dark_skin_tone, and `~word` leaves word itself out.
 */
export function unpackEmojiNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const token of text.split(/\s+/)) {
    if (token === '') continue;
    const [head, flags = ''] = token.split('/') as [string, string?];
    const word = head.startsWith('~') ? head.slice(1) : head;
    if (word === head) out.add(word);
    if (flags.includes('t')) for (let i = 1; i <= 5; i++) out.add(`${word}_tone${i}`);
    if (flags.includes('s')) for (const tone of TONES) out.add(`${word}_${tone}_skin_tone`);
  }
  return out;
}

function lookups(): { names: Set<string>; aliases: Map<string, string> } {
  if (packed === undefined || table === undefined) throw new Error('emoji names are loaded with the first emulator');
  if (!names || !aliases) {
    aliases = table();
    names = unpackEmojiNames(packed);
  }
  return { names, aliases };
}

const ALPHA_CODE = /:[_+\-a-z0-9]+:/;
const WRAPPED = /^:([_+\-a-z0-9]+):$/;

/** The alpha code TanukiEmoji looks a name up by, without its colons; null when none can match. */
function alphaCode(name: string): string | null {
  const wrapped = WRAPPED.exec(name);
  if (wrapped) return wrapped[1]!;
  return ALPHA_CODE.test(name) ? null : name;
}

/** TanukiEmoji.find_by_alpha_code(name)&.name: the emoji's own name, or undefined when there is none. */
function emojiName(name: string): string | undefined {
  const code = alphaCode(name);
  if (code === null) return undefined;
  const { names: all, aliases: byAlias } = lookups();
  if (all.has(code)) return code;
  return byAlias.get(code);
}

/** Gitlab::EmojiNameValidator's TanukiEmoji.find_by_alpha_code: whether the name is one of GitLab's emoji. */
export function isEmojiName(name: string): boolean {
  return emojiName(name) !== undefined;
}

/**
 * AwardEmojis::BaseService#normalize_name (`TanukiEmoji.find_by_alpha_code(name)&.name || name`):
 * an alias, or a name in colons, is its emoji's name (`+1` and `:+1:` are `thumbsup`,
 * `thumbs_up_dark_skin_tone` is `thumbsup_tone5`); any other name is itself.
 */
export function normalizeEmojiName(name: string): string {
  return emojiName(name) ?? name;
}
