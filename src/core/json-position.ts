// Where a JSON text goes wrong, as line and column: JSON.parse's messages on Node 20 often name
// neither. A small scanner that follows JSON's grammar and stops at the first character it refuses.

/** The 1-based line and column of the first character of `text` that is not JSON; undefined when it parses. */
export function jsonErrorAt(text: string): { line: number; column: number; offset: number } | undefined {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i++] !== ch) (i--, fail());
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const ch = text[i]!;
      if (ch === '"') return void i++;
      if (ch < ' ') fail();
      if (ch === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) (i += k, fail());
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i] ?? 'x')) i++;
        else fail();
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail();
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (at) {
    if (typeof at !== 'number') throw at;
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    return { line, column: at - before.lastIndexOf('\n'), offset: at };
  }
}
