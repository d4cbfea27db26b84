#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
/* Declares sqlite3_preupdate_hook and friends (undo recording); Debian's libsqlite3 is built with
 * them (`PRAGMA compile_options` lists ENABLE_PREUPDATE_HOOK). */
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: one wrapper per setting lifelog changes.
 * Memory statistics make SQLite take a global mutex around every allocation; lifelog never reads
 * them. Must run before the first connection opens (SQLITE_MISUSE after). */
static inline int csqlite_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* sqlite3_db_config is variadic too. SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE: closing the last connection
 * neither checkpoints nor deletes the -wal and -shm files (3.16+). Returns the setting now in
 * force (1 on, 0 off) through `*now`. */
static inline int csqlite_set_no_checkpoint_on_close(sqlite3 *db, int on, int *now) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, now);
}
#endif
