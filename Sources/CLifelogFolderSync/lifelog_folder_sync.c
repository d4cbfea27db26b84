#include "lifelog_folder_sync.h"

#include <pthread.h>
#include <sqlite3.h>
#include <sys/stat.h>

/* The WALs whose folder is not synced again: those of the logs open in this process that held
 * frames when they were opened. A handful at most (the server opens one log per store). */
enum { slot_count = 16 };
static struct {
  unsigned long long device;
  unsigned long long inode;
  int used;
} noted[slot_count];
static pthread_mutex_t noted_lock = PTHREAD_MUTEX_INITIALIZER;
static int (*sqlite_open_directory)(const char *, int *);

static int is_noted(unsigned long long device, unsigned long long inode) {
  int found = 0;
  pthread_mutex_lock(&noted_lock);
  for (int slot = 0; slot < slot_count; slot++) {
    if (noted[slot].used && noted[slot].device == device && noted[slot].inode == inode) found = 1;
  }
  pthread_mutex_unlock(&noted_lock);
  return found;
}

/* SQLite calls this with the path of the file it has just synced for the first time. */
static int open_directory(const char *path, int *descriptor) {
  struct stat info;
  if (stat(path, &info) == 0 && is_noted(info.st_dev, info.st_ino)) return SQLITE_CANTOPEN;
  return sqlite_open_directory(path, descriptor);
}

int lifelog_folder_sync_install(void) {
  sqlite3_vfs *vfs = sqlite3_vfs_find(0);
  if (vfs == 0 || vfs->iVersion < 3 || vfs->xGetSystemCall == 0) return -1;
  sqlite3_syscall_ptr current = vfs->xGetSystemCall(vfs, "openDirectory");
  if (current == 0) return -1;
  if (current == (sqlite3_syscall_ptr)open_directory) return 0;
  sqlite_open_directory = (int (*)(const char *, int *))current;
  return vfs->xSetSystemCall(vfs, "openDirectory", (sqlite3_syscall_ptr)open_directory) == SQLITE_OK
             ? 0
             : -1;
}

int lifelog_folder_sync_note(unsigned long long device, unsigned long long inode) {
  int done = 0;
  pthread_mutex_lock(&noted_lock);
  for (int slot = 0; slot < slot_count && !done; slot++) {
    if (!noted[slot].used) {
      noted[slot].device = device;
      noted[slot].inode = inode;
      noted[slot].used = 1;
      done = 1;
    }
  }
  pthread_mutex_unlock(&noted_lock);
  return done;
}

void lifelog_folder_sync_forget(unsigned long long device, unsigned long long inode) {
  pthread_mutex_lock(&noted_lock);
  for (int slot = 0; slot < slot_count; slot++) {
    if (noted[slot].used && noted[slot].device == device && noted[slot].inode == inode) {
      noted[slot].used = 0;
      break;
    }
  }
  pthread_mutex_unlock(&noted_lock);
}
