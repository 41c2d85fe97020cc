// GitLab's duration language (Gitlab::TimeTrackingFormatter over gitlab-chronic-duration).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../src/families/issuables/index.js';

describe('parseDuration', () => {
  it('reads units with 8-hour days, 5-day weeks and 4-week months', () => {
    expect(parseDuration('1mo 2w 3d 4h 5m')).toBe(965_100);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration('1d')).toBe(28_800);
    expect(parseDuration('1w')).toBe(144_000);
    expect(parseDuration('1mo')).toBe(576_000);
    expect(parseDuration('1y')).toBe(31_557_600);
    expect(parseDuration('2 hours and 30 minutes')).toBe(9000);
    expect(parseDuration('1.5h')).toBe(5400);
    expect(parseDuration('90s')).toBe(90);
  });

  it('takes a bare number as hours, a leading unit as one, a chrono form as minutes and seconds', () => {
    expect(parseDuration('3')).toBe(10_800);
    expect(parseDuration('h')).toBe(3600);
    expect(parseDuration('1:30')).toBe(90);
    expect(parseDuration('3x')).toBe(10_800);
  });

  it('negates a leading minus; nothing readable, or zero, is null unless zero is kept', () => {
    expect(parseDuration('-1h')).toBe(-3600);
    expect(parseDuration('foo')).toBeNull();
    expect(parseDuration('0')).toBeNull();
    expect(parseDuration('0', true)).toBe(0);
    expect(parseDuration('')).toBeNull();
  });
});

describe('formatDuration', () => {
  it('writes the short form, largest unit first, zero parts left out', () => {
    expect(formatDuration(965_100)).toBe('1mo 2w 3d 4h 5m');
    expect(formatDuration(5400)).toBe('1h 30m');
    expect(formatDuration(90)).toBe('1m 30s');
    expect(formatDuration(0)).toBeNull();
    expect(formatDuration(-3600)).toBe('-1h');
  });

  it('reads back what it writes (below a year)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 31_557_599 }), (n) => parseDuration(formatDuration(n)!) === n));
  });
});
