#ifndef LIFELOG_FOLDER_SYNC_H
#define LIFELOG_FOLDER_SYNC_H

/// The folder sync of a WAL already on disk, skipped. SQLite's unix VFS opens every WAL with
/// O_CREAT and so syncs its folder on each connection's first sync of it; that makes the WAL's
/// directory entry durable, needed only for a WAL created since. A noted WAL (by device and inode)
/// has its "openDirectory" system call declined, which SQLite takes as "no folder to sync"; every
/// other file goes to SQLite's own call.

/// Installs the filter in the default VFS: 0, or -1 when this SQLite lacks the call. Call once,
/// before the first connection opens (SQLite's system calls may not change while files are open).
int lifelog_folder_sync_install(void);

/// Notes the WAL with this device and inode: 1, or 0 when every slot is taken (it then keeps its
/// folder sync).
int lifelog_folder_sync_note(unsigned long long device, unsigned long long inode);

/// Forgets a noted WAL (its connection closed).
void lifelog_folder_sync_forget(unsigned long long device, unsigned long long inode);

#endif
