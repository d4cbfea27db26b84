// Stamps and the hybrid logical clock (docs/sync-protocol.md §2).

export const STAMP_LENGTH = 28;
export const MAX_MS = 0xffffffffffff;
export const MAX_COUNTER = 0xffff;
/** A received stamp more than this far ahead of the wall clock holds its batch back. */
export const AHEAD_LIMIT = 3_600_000;

/** Whether `text` is a well-formed stamp: 28 lower-case hex digits. */
export function isValidStamp(text) {
  return typeof text === 'string' && text.length === STAMP_LENGTH && /^[0-9a-f]+$/.test(text);
}

/** The 12 hex digits of a device id that go into its stamps. */
export function devicePart(device) {
  const digits = device.toLowerCase().replace(/[^0-9a-f]/g, '').slice(0, 12);
  return digits.padEnd(12, '0');
}

/** The stamp of a clock reading; parts beyond their width are capped. */
export function makeStamp(ms, counter, device) {
  const m = Math.min(Math.max(ms, 0), MAX_MS);
  const c = Math.min(Math.max(counter, 0), MAX_COUNTER);
  return m.toString(16).padStart(12, '0') + c.toString(16).padStart(4, '0') + devicePart(device);
}

/** The wall-clock milliseconds of a stamp, or null for a malformed one. */
export function stampMilliseconds(stamp) {
  return isValidStamp(stamp) ? parseInt(stamp.slice(0, 12), 16) : null;
}

/** The hybrid logical clock: `{ms, counter}` that only moves forward. */
export class HybridClock {
  constructor(ms = 0, counter = 0) {
    this.ms = ms;
    this.counter = counter;
  }

  /** Advances the clock for a local write at wall time `wall` (Unix ms). */
  tick(wall) {
    const w = Math.min(wall, MAX_MS);
    if (w > this.ms) {
      this.ms = w;
      this.counter = 0;
    } else if (this.counter < MAX_COUNTER) {
      this.counter += 1;
    } else if (this.ms < MAX_MS) {
      this.ms += 1;
      this.counter = 0;
    }
    return this;
  }

  /** Moves the clock past a received stamp, never beyond `wall` + AHEAD_LIMIT. */
  observe(stamp, wall) {
    const ms = stampMilliseconds(stamp);
    if (ms === null) return;
    const count = parseInt(stamp.slice(12, 16), 16);
    const limit = wall > MAX_MS - AHEAD_LIMIT ? MAX_MS : wall + AHEAD_LIMIT;
    if (ms > limit) return;
    if (ms > this.ms || (ms === this.ms && count > this.counter)) {
      this.ms = ms;
      this.counter = count;
    }
  }
}
