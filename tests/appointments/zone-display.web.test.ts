import { describe, expect, it } from 'vitest';
import { timeZoneAbbreviation, visitorClockTime, zonedInstant } from '#core/firm-time';

// Times every visitor reads right (docs/product.md §3): the firm's slots name its zone, and a
// visitor elsewhere also sees the time on their own clock.
describe('the firm zone and the visitor clock', () => {
  it('names Eastern Time "ET" and finds a slot\'s instant in summer and in winter', () => {
    expect(timeZoneAbbreviation('America/New_York')).toBe('ET');
    expect(zonedInstant('2026-07-15', 600, 'America/New_York').toISOString()).toBe('2026-07-15T14:00:00.000Z');
    expect(zonedInstant('2026-12-15', 600, 'America/New_York').toISOString()).toBe('2026-12-15T15:00:00.000Z');
    // The first Monday after the spring change (8 March 2026).
    expect(zonedInstant('2026-03-09', 540, 'America/New_York').toISOString()).toBe('2026-03-09T13:00:00.000Z');
  });

  it('gives the visitor\'s own time only when their zone reads it differently', () => {
    expect(visitorClockTime('2026-07-15', 600, 'America/New_York', 'America/Los_Angeles')).toBe('7:00 AM');
    expect(visitorClockTime('2026-07-15', 600, 'America/New_York', 'America/Detroit')).toBeNull();
    expect(visitorClockTime('2026-07-15', 600, 'America/New_York', 'America/New_York')).toBeNull();
    // Another day there: the weekday says so.
    expect(visitorClockTime('2026-07-15', 960, 'America/New_York', 'Asia/Tokyo')).toBe('Thu 5:00 AM');
  });
});
