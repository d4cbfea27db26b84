/*
 * A preload for the fault campaign (scripts/faults.sh), loaded after libfiu's own:
 *
 * - wraps the *at calls libfiu 1.1 does not (openat, renameat, unlinkat, mkdirat), each behind a
 *   libfiu failure point of its own (posix/io/dir/openat, ...), so a folder remote, which opens
 *   everything relative to a folder's descriptor, meets faults too;
 * - counts every fault libfiu injects (it interposes fiu_fail, which libfiu's posix preload calls
 *   through the dynamic linker): each one appends a byte to the file named by FAULT_COUNT_FILE,
 *   written with raw system calls so the count itself can never fail or recurse.
 *
 * Built by the campaign with: cc -shared -fPIC -O2 -DFIU_ENABLE=1 fiu_at.c -o fiu_at.so -lfiu -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <fiu.h>

static int (*next_fiu_fail)(const char *);

/* Every failure point consulted; a fault is counted when libfiu says to fail. */
int fiu_fail(const char *name) {
  if (!next_fiu_fail) next_fiu_fail = (int (*)(const char *))dlsym(RTLD_NEXT, "fiu_fail");
  int failing = next_fiu_fail ? next_fiu_fail(name) : 0;
  if (failing) {
    const char *path = getenv("FAULT_COUNT_FILE");
    if (path) {
      long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
      if (fd >= 0) {
        syscall(SYS_write, fd, "x", 1);
        syscall(SYS_close, fd);
      }
    }
  }
  return failing;
}

#define NEXT(type, name, args) \
  static type(*next_##name) args; \
  if (!next_##name) next_##name = (type(*) args)dlsym(RTLD_NEXT, #name)

static mode_t creation_mode(int flags, va_list arguments) {
  return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(arguments, int) : 0;
}

int openat(int folder, const char *path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = creation_mode(flags, arguments);
  va_end(arguments);
  NEXT(int, openat, (int, const char *, int, ...));
  if (fiu_fail("posix/io/dir/openat")) {
    errno = (flags & O_CREAT) ? ENOSPC : EIO;
    return -1;
  }
  return next_openat(folder, path, flags, mode);
}

int openat64(int folder, const char *path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = creation_mode(flags, arguments);
  va_end(arguments);
  NEXT(int, openat64, (int, const char *, int, ...));
  if (fiu_fail("posix/io/dir/openat")) {
    errno = (flags & O_CREAT) ? ENOSPC : EIO;
    return -1;
  }
  return next_openat64(folder, path, flags, mode);
}

int renameat(int from_folder, const char *from, int to_folder, const char *to) {
  NEXT(int, renameat, (int, const char *, int, const char *));
  if (fiu_fail("posix/io/dir/renameat")) {
    errno = EIO;
    return -1;
  }
  return next_renameat(from_folder, from, to_folder, to);
}

int unlinkat(int folder, const char *path, int flags) {
  NEXT(int, unlinkat, (int, const char *, int));
  if (fiu_fail("posix/io/dir/unlinkat")) {
    errno = EIO;
    return -1;
  }
  return next_unlinkat(folder, path, flags);
}

int mkdirat(int folder, const char *path, mode_t mode) {
  NEXT(int, mkdirat, (int, const char *, mode_t));
  if (fiu_fail("posix/io/dir/mkdirat")) {
    errno = ENOSPC;
    return -1;
  }
  return next_mkdirat(folder, path, mode);
}
