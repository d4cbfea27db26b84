// The merge rule (docs/sync-protocol.md §2): per field, the larger stamp wins; equal stamps are the
// same write. A state-based CRDT: the result does not depend on order, duplicates or snapshots.

/**
 * `incoming` merged into `existing` (`{values, stamps}`), or null when `existing` already holds
 * everything `incoming` has.
 */
export function mergeRow(existing, incoming) {
  if (!existing) return { values: [...incoming.values], stamps: [...incoming.stamps] };
  let changed = false;
  const merged = { values: [...existing.values], stamps: [...existing.stamps] };
  incoming.values.forEach((value, index) => {
    if (incoming.stamps[index] > merged.stamps[index]) {
      merged.values[index] = value;
      merged.stamps[index] = incoming.stamps[index];
      changed = true;
    }
  });
  return changed ? merged : null;
}
