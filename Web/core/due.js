// When the next meal is due: the rule and numbers of `lifelog due` (Sources/LifelogCore/Rhythm/
// MealDue.swift). A meal is due `mealGapHours` after the last one; before the report day's first
// meal, `mealGapHours` after the day began or after the last meal, whichever is later. Days begin at
// `dayStartsAt` on the wall clock; gaps are real elapsed time.
import { parseTime } from './time.js';

/** `{mealGapHours, dayStartsAtMinutes}` from the synced settings, defaults for anything unusable. */
export function dueSettings(state) {
  const gapText = state.rows.setting.mealGapHours?.values[0];
  const gap = Number(gapText);
  const mealGapHours = gapText !== undefined && Number.isFinite(gap) && gap >= 0.5 && gap <= 24 ? gap : 3;
  let dayStartsAtMinutes = 240;
  const match = /^(\d{1,2}):(\d{2})$/.exec(state.rows.setting.dayStartsAt?.values[0] ?? '');
  if (match && Number(match[1]) < 24 && Number(match[2]) < 60) dayStartsAtMinutes = Number(match[1]) * 60 + Number(match[2]);
  return { mealGapHours, dayStartsAtMinutes };
}

/** The report day (days since 1970) of an instant seen at `offsetMinutes`. */
function dayNumber(ms, offsetMinutes, dayStartsAtMinutes) {
  return Math.floor((ms / 1000 + offsetMinutes * 60 - dayStartsAtMinutes * 60) / 86400);
}

/**
 * The latest meal (not deleted) logged at or before `nowMs`, as `{id, at, ms, offset, activity,
 * note}`, or null: by time, then by id. Scans every entry; a page keeps a `LogIndex` instead.
 */
export function lastMealBefore(state, nowMs) {
  let last = null;
  for (const id of Object.keys(state.rows.entry)) {
    const candidate = mealAt(state, id);
    if (!candidate || candidate.ms > nowMs) continue;
    if (!last || candidate.ms > last.ms || (candidate.ms === last.ms && id > last.id)) last = candidate;
  }
  return last;
}

/** The entry `id` as a meal `{id, at, ms, offset, activity, note}`; null when it is no meal. */
export function mealAt(state, id) {
  const [activityID, at, , note, , , , deleted] = state.rows.entry[id].values;
  const activity = state.rows.activity[activityID];
  if (deleted || activity?.values[1] !== 'meal') return null;
  const time = parseTime(at);
  if (!time) return null;
  return { id, at, ms: time.ms, offset: time.offset, activity: activity.values[0], note };
}

/**
 * `{lastMeal, sinceMinutes, dueAt, overdueMinutes, secondsUntilDue, mealGapHours}` at `nowMs` for a
 * reader whose zone gives `offsetAt(ms)` (minutes east of UTC) and starts day `day` at
 * `dayStart(day)`; `lastMeal(state, nowMs)` finds the last meal (`lastMealBefore`, or an index's).
 */
export function mealDue(state, nowMs, {
  offsetAt = (ms) => -new Date(ms).getTimezoneOffset(), dayStart, lastMeal = lastMealBefore,
} = {}) {
  const settings = dueSettings(state);
  const gapSeconds = Math.round(settings.mealGapHours * 3600);
  const last = lastMeal(state, nowMs);
  const today = dayNumber(nowMs, offsetAt(nowMs), settings.dayStartsAtMinutes);
  const startOf = dayStart ?? ((day) => {
    const date = new Date(day * 86400000);
    const minutes = settings.dayStartsAtMinutes;
    return new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), Math.floor(minutes / 60), minutes % 60).getTime();
  });
  const result = { lastMeal: null, sinceMinutes: null, dueAt: null, overdueMinutes: 0, secondsUntilDue: null,
    mealGapHours: settings.mealGapHours };
  if (!last) return result;
  const nowSeconds = Math.floor(nowMs / 1000);
  const lastSeconds = Math.floor(last.ms / 1000);
  const firstOfDay = dayNumber(last.ms, last.offset, settings.dayStartsAtMinutes) < today;
  const afterLast = lastSeconds + gapSeconds;
  const dueAt = firstOfDay ? Math.max(afterLast, Math.floor(startOf(today) / 1000) + gapSeconds) : afterLast;
  result.lastMeal = { id: last.id, at: last.at, activity: last.activity, note: last.note };
  result.sinceMinutes = Math.trunc((nowSeconds - lastSeconds) / 60);
  result.dueAt = dueAt * 1000;
  result.overdueMinutes = nowSeconds > dueAt ? Math.trunc((nowSeconds - dueAt) / 60) : 0;
  result.secondsUntilDue = dueAt - nowSeconds;
  return result;
}
