// Times as entries carry them: ISO 8601 to the second with the UTC offset where they were logged.

function pad(number, width = 2) {
  return String(number).padStart(width, '0');
}

/** `+01:00`, `-05:00`; UTC is `+00:00`. */
export function offsetText(minutes) {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The time `ms` (Unix ms) at UTC offset `offsetMinutes`, as `2026-12-02T08:00:00+01:00`. */
export function isoTime(ms, offsetMinutes) {
  const shifted = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * 60_000);
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`
    + `T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`
    + offsetText(offsetMinutes);
}

/** The offset of this device's zone at `ms`, in minutes east of UTC. */
export function localOffset(ms) {
  return -new Date(ms).getTimezoneOffset();
}

/** `ms` in this device's zone. */
export function localISO(ms) {
  return isoTime(ms, localOffset(ms));
}

/** `{ms, offset}` of an entry time, or null when it is not one. */
export function parseTime(value) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|([+-])(\d{2}):?(\d{2}))$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, zone, sign, oh, om] = match;
  const offset = zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  return { ms: utc - offset * 60_000, offset };
}

/** An entry time written as lifelog prints it (`+00:00` for UTC, whole seconds). */
export function normalizedTime(value) {
  const parsed = parseTime(value);
  return parsed ? isoTime(parsed.ms, parsed.offset) : value;
}
