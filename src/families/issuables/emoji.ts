// The emoji names an award may have (emoji-names.ts) and the aliases GitLab turns into their
// emoji's name (emoji-aliases.ts), loaded with the first emulator (the family's `load`) and made
// into lookups on first use, so that a world which never awards an emoji never builds them.
let text: string | undefined;
let table: (() => Map<string, string>) | undefined;
let names: Set<string> | undefined;
let aliases: Map<string, string> | undefined;

export async function loadEmojiNames(): Promise<void> {
  text ??= (await import('./emoji-names.js')).NAMES;
  table ??= (await import('./emoji-aliases.js')).aliasTable;
}

function lookups(): { names: Set<string>; aliases: Map<string, string> } {
  if (text === undefined || table === undefined) throw new Error('emoji names are loaded with the first emulator');
  if (!names || !aliases) {
    aliases = table();
    names = new Set(text.split(' '));
    for (const [alias, name] of aliases) names.add(alias).add(name);
  }
  return { names, aliases };
}

/** TanukiEmoji.find_by_alpha_code: whether the name is one of GitLab's emoji (a name or an alias). */
export function isEmojiName(name: string): boolean {
  return lookups().names.has(name);
}

/**
 * AwardEmojis::BaseService#normalize_name (`TanukiEmoji.find_by_alpha_code(name)&.name || name`):
 * an alias is its emoji's name (`+1` is `thumbsup`, `thumbs_up_dark_skin_tone` is `thumbsup_tone5`);
 * any other name is itself.
 */
export function normalizeEmojiName(name: string): string {
  return lookups().aliases.get(name) ?? name;
}
