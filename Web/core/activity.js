// Activity names and ids (docs/sync-protocol.md §1).
import { sha256, utf8, uuidText } from './bytes.js';

/** The form names are compared in: runs of spaces and tabs as one space, lower-cased. */
export function activityKey(name) {
  return name.split(/[ \t]+/).filter((part) => part !== '').join(' ').toLowerCase();
}

/** The id an activity created under `name` gets (`attempt` > 0: the fallbacks). */
export async function derivedActivityID(name, attempt = 0) {
  const seed = `lifelog-activity:${activityKey(name)}${attempt === 0 ? '' : `#${attempt}`}`;
  const bytes = (await sha256(utf8(seed))).slice(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return uuidText(bytes);
}

/** The activities every log has, with the empty stamp. */
export const DEFAULT_ACTIVITIES = [
  ['breakfast', 'meal'], ['lunch', 'meal'], ['dinner', 'meal'], ['snack', 'meal'],
  ['walk', 'exercise'], ['run', 'exercise'], ['workout', 'exercise'], ['sleep', 'sleep'],
];

export const KINDS = ['meal', 'exercise', 'sleep', 'medication', 'other'];
