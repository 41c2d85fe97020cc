// The layers of docs/architecture.md hold: imports under src/ only point down, a family reaches
// another only through its index.ts, and only the transports load a transport.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the layers', () => {
  it('every import under src/ points down (scripts/check-layers.mjs)', () => {
    const out = execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'check-layers.mjs')], { encoding: 'utf8' });
    expect(out.trim()).toBe('layers: every import points down');
  });
});
