// The newest-first walk of a table keyed by increasing ids (store/table.ts tvaluesDesc), against a plain model.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTable, tdel, tset, tvaluesDesc } from '../src/store/table.js';

describe('tvaluesDesc', () => {
  it('yields every value newest first, whatever was added and removed', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 2000 })), { maxLength: 300 }), (ops) => {
        const t = emptyTable<number>();
        const model = new Set<number>();
        for (const [add, id] of ops) {
          if (add) tset(t, id, id), model.add(id);
          else tdel(t, id), model.delete(id);
        }
        expect([...tvaluesDesc(t)]).toEqual([...model].sort((a, b) => b - a));
      }),
      { numRuns: 200 },
    );
  });
});
