@preconcurrency import Glibc
import LifelogCore
import LifelogLoopback

/// The WebDAV figures of the WebDAV issue, through Apache httpd with mod_dav (Debian `apache2`)
/// that the benchmark starts single-process on a free loopback port with basic authentication: a
/// first sync of 100,000 entries each way, a sync with nothing to do (its time and how many
/// requests it makes), and a sync of 10 new entries. Every one is the whole `lifelog sync`
/// process, as cron runs it.
extension BenchmarkSuite {
  func runDAV(report: (Figure) -> Void) throws {
    let server = try DAVBenchServer(folder: folder + "/dav")
    defer { server.stop() }
    Log.info("webdav: Apache mod_dav listening on \(server.url)")
    let passwordFile = folder + "/dav.password"
    try writeToken(DAVBenchServer.password, to: passwordFile)
    let url = server.url + "/lifelog"
    let add = ["remote", "add", "cloud", url, "--user", "bench", "--password-file", passwordFile]

    let entries = SampleLog.entries(
      count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60, seed: 0x5EED)
    let pusher = folder + "/dav-push.db"
    let puller = folder + "/dav-pull.db"
    try buildLog(at: pusher, with: entries)
    try lifelogCommand(add + ["--no-encrypt"], database: pusher).check()
    try lifelogCommand(add, database: puller).check()
    sync()
    let push = try lifelogCommand(["sync", "--quiet"], database: pusher).timedRun()
    Log.info("webdav: first push of \(Self.entryCount) entries took \(ms(push))")
    report(
      Figure(name: "webdav_push_100k_s", value: push, unit: "s", goal: .atMost(5), decimals: 3))
    let (pull, peak) = try timedFirstPull(puller)
    Log.info("webdav: first pull took \(ms(pull)), peak \(peak >> 20) MiB")
    report(
      Figure(name: "webdav_pull_100k_s", value: pull, unit: "s", goal: .atMost(5), decimals: 3))

    // As cron runs it, minutes apart: the folders' ETags are then settled (DAVRemote trusts one
    // only two seconds after the folder's last change).
    sleep(3)
    let quiet = lifelogCommand(["sync", "--quiet"], database: puller)
    try quiet.check()  // takes the markers
    let before = server.requestCount()
    try quiet.check()
    let requests = server.requestCount() - before
    Log.info("webdav: a sync with nothing to do made \(requests) requests")
    report(
      Figure(
        name: "webdav_noop_requests", value: Double(requests), unit: "requests", goal: .atMost(5),
        decimals: 0))
    let noop = try latency("webdav_noop_sync_ms", of: quiet, runs: Self.quickSyncRuns)
    report(
      Figure(
        name: "webdav_noop_sync_ms", value: noop.median * 1e3, unit: "ms", goal: .atMost(50),
        decimals: 2))

    report(try tenNewSyncs("webdav_10new_ms", database: pusher, atMost: 100))
  }
}

/// Apache httpd (`apache2 -X`, one process) serving a folder over WebDAV with basic
/// authentication, its config, password file and logs in a folder of its own.
final class DAVBenchServer {
  static let password = "bench password"
  let pid: pid_t
  let port: Int
  let folder: String
  var url: String { "dav://127.0.0.1:\(port)" }
  private var stopped = false

  init(folder: String) throws {
    self.folder = folder
    let files = folder + "/files"
    for path in [folder, files, folder + "/lock"] { mkdir(path, 0o755) }
    chmod(folder, 0o755)
    let tools = ["PATH": "/usr/bin:/bin:/usr/sbin", "HOME": folder]
    try ChildCommand(
      executable: "/usr/bin/htpasswd",
      arguments: ["-cbB", folder + "/htpasswd", "bench", DAVBenchServer.password],
      environment: tools
    ).check()
    let root = geteuid() == 0
    if root {
      // Apache will not serve as root: it becomes nobody, who must own what it writes.
      try ChildCommand(
        executable: "/bin/chown",
        arguments: ["-R", "nobody:nogroup", files, folder + "/lock", folder + "/htpasswd"],
        environment: tools
      ).check()
      // The benchmark's own folder above must let nobody through (not list it).
      if let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
        chmod(String(folder[..<slash]), 0o711)
      }
    }
    guard let port = Loopback.freePort() else {
      throw BenchmarkError("cannot find a free port on 127.0.0.1")
    }
    self.port = port
    let config = ApacheDAVConfig(
      folder: folder, files: files, port: port, errorLog: folder + "/error.log"
    ).text
    do {
      try LocalFile.write(Array(config.utf8), to: folder + "/httpd.conf")
    } catch {
      throw BenchmarkError("cannot write the Apache config: \(error.reason)")
    }
    let words: [String] = [
      "/usr/sbin/apache2", "-X", "-f", folder + "/httpd.conf", "-DFOREGROUND",
    ]
    let environment: [String] = ["PATH=/usr/bin:/bin", "HOME=" + folder]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, STDOUT_FILENO, folder + "/stdout.log", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
    var child: pid_t = 0
    let code = posix_spawn(&child, "/usr/sbin/apache2", &actions, nil, argv, envp)
    guard code == 0 else {
      throw BenchmarkError(
        "cannot start apache2 (install apache2 and apache2-utils): \(String(cString: strerror(code)))"
      )
    }
    pid = child
    for _ in 0..<2000 {
      if Loopback.answers(port: port) { return }
      usleep(10_000)
    }
    kill(child, SIGKILL)
    var status: Int32 = 0
    waitpid(child, &status, 0)
    throw BenchmarkError("apache2 did not start; see \(folder)/error.log")
  }

  deinit { stop() }

  func stop() {
    guard !stopped else { return }
    stopped = true
    ChildCommand.terminate(pid)
  }

  /// Requests Apache has logged so far.
  func requestCount() -> Int {
    guard let file = fopen(folder + "/access.log", "r") else { return 0 }
    defer { fclose(file) }
    var count = 0
    while true {
      let character = fgetc(file)
      if character == EOF { break }
      if character == 0x0A { count += 1 }
    }
    return count
  }
}
