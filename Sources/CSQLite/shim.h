#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: one wrapper per setting lifelog changes.
 * Memory statistics make SQLite take a global mutex around every allocation; lifelog never reads
 * them. Must run before the first connection opens (SQLITE_MISUSE after). */
static inline int csqlite_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
