import CLifelogHTTPD
@preconcurrency import Glibc

/// How the server's process hands freed memory back to the system.
///
/// A page of changes is built in buffers of up to `maxPageBytes` (4 MiB) and a push arrives in one
/// of up to `--max-body` (8 MiB). With glibc's defaults, every buffer past 128 KiB is a fresh
/// `mmap`, and memory freed at the top of a thread's arena is returned with `madvise` at once: so
/// each request that builds one page-faults its memory in again and gives it back, which cost
/// more CPU than building the page (`perf`: page faults, `madvise` and the first touch of new
/// pages took about 40 % of the server's time per page of 10 batches; docs/benchmarks.md). Freed
/// memory up to a request's worth is kept for the next request instead.
enum ServerMemory {
  /// A request's largest buffer: the default `--max-body`.
  static let keptBytes: Int32 = 8 << 20

  /// Raises glibc's mmap and trim thresholds to ``keptBytes`` (`mallopt`, in the C shim: Swift's
  /// Glibc module has no `malloc.h`); settings made with `GLIBC_TUNABLES` win, since this only
  /// runs when none are.
  static func keepFreedMemoryForReuse() {
    guard getenv("GLIBC_TUNABLES") == nil else { return }
    lh_keep_freed_memory(keptBytes)
  }
}
