// What the page's today view asks of the log on every tap and every second — the day's entries,
// how often each activity was used, the last meal — kept up to date entry by entry, so a tap
// costs the same on a log of 10 entries and of 10,000 (docs/web.md, "Speed").
import { mealAt } from './due.js';
import { entryOf, sortEntries } from './replica.js';

/** The position of `meal` in `meals` (by ms, then id): where it is, or where it would go. */
function position(meals, meal) {
  let low = 0;
  let high = meals.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const other = meals[middle];
    if (other.ms < meal.ms || (other.ms === meal.ms && other.id < meal.id)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * An index over a replica's entries. After the page changes an entry it calls `entryChanged(id)`;
 * after rows arrive from elsewhere (a sync that merged any), or activities change, `rebuild()`.
 */
export class LogIndex {
  constructor(state) {
    this.rebuild(state);
  }

  /** Reads every entry of `state` (the page's replica) again. */
  rebuild(state = this.state) {
    this.state = state;
    /** Day (`YYYY-MM-DD` of the entry's own time) to the ids of its entries not deleted. */
    this.byDay = new Map();
    /** Activity id to how many entries (not deleted) it has. */
    this.uses = new Map();
    /** The meals (not deleted) as `{ms, id}`, by time, then id. */
    this.meals = [];
    /** What each entry was counted as: `{day, activity, meal}` (null: deleted; meal: `{ms, id}`). */
    this.counted = new Map();
    for (const id of Object.keys(state.rows.entry)) this.count(id, false);
    this.meals.sort((a, b) => a.ms - b.ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Counts the entry `id` as it is now, in place of what it was counted as before. */
  entryChanged(id) {
    const before = this.counted.get(id);
    if (before) {
      this.byDay.get(before.day)?.delete(id);
      this.uses.set(before.activity, (this.uses.get(before.activity) ?? 1) - 1);
      if (before.meal) {
        const at = position(this.meals, before.meal);
        if (this.meals[at]?.id === id) this.meals.splice(at, 1);
      }
    }
    this.count(id, true);
  }

  count(id, sorted) {
    const row = this.state.rows.entry[id];
    const [activity, at, , , , , , deleted] = row.values;
    if (deleted) {
      this.counted.set(id, null);
      return;
    }
    const day = at.slice(0, 10);
    if (!this.byDay.has(day)) this.byDay.set(day, new Set());
    this.byDay.get(day).add(id);
    this.uses.set(activity, (this.uses.get(activity) ?? 0) + 1);
    const meal = this.mealOf(id);
    if (meal) {
      if (sorted) this.meals.splice(position(this.meals, meal), 0, meal);
      else this.meals.push(meal);
    }
    this.counted.set(id, { day, activity, meal });
  }

  /**
   * `{ms, id}` of a meal (null for any other entry): `Date.parse` reads the form lifelog writes
   * (`2026-12-06T08:00:00+01:00`) a few times faster than `parseTime`, which reads the rest.
   */
  mealOf(id) {
    const [activityID, at] = this.state.rows.entry[id].values;
    if (this.state.rows.activity[activityID]?.values[1] !== 'meal') return null;
    const quick = at.length === 25 && (at[19] === '+' || at[19] === '-') ? Date.parse(at) : NaN;
    if (!Number.isNaN(quick)) return { ms: quick, id };
    const meal = mealAt(this.state, id);
    return meal ? { ms: meal.ms, id } : null;
  }

  /** The entries (not deleted) of `day`, as `entries(state, {day})` gives them. */
  entriesOn(day) {
    return sortEntries([...(this.byDay.get(day) ?? [])].map((id) => entryOf(this.state, id)));
  }

  /** The last meal at or before `nowMs`, as `lastMealBefore` finds it (for `mealDue`). */
  lastMealBefore(nowMs) {
    const at = position(this.meals, { ms: nowMs, id: '\u{10FFFF}' });
    return at > 0 ? mealAt(this.state, this.meals[at - 1].id) : null;
  }
}
