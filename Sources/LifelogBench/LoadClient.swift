@preconcurrency import Glibc
import LifelogCore
import LifelogProtocol
import LifelogSync
import Synchronization

/// The batches one load client pushes: batch `seq` of its device, for any `seq` up to `count`,
/// each `rows` new entries.
///
/// Every batch of a client holds the same rows (the server stores bytes; it never merges them),
/// so only the header and the trailer with its SHA-256 differ: they are made before the clock
/// starts, and a push only concatenates.
struct LoadBatches {
  let count: Int
  private let rows: [UInt8]
  private let headers: [[UInt8]]
  private let trailers: [[UInt8]]

  init(device: String, count: Int, rows: Int, random: inout SplitMix64) throws {
    let activity = ActivityName.derivedID(for: "snack")
    let start: Int64 = 1_780_000_000_000
    let changes = (0..<rows).map { index -> RowChange in
      let milliseconds = start + Int64(index)
      let stamp = Stamp.make(milliseconds: milliseconds, counter: 0, device: device)
      let values: [FieldValue] = [
        .text(activity), .time(LoggedTime(instant: milliseconds / 1000, offsetMinutes: 60)),
        index % 5 == 0 ? .integer(600) : .null,
        index % 3 == 0 ? .text("load test entry \(index)") : .null,
        .null, .tags(index % 4 == 0 ? ["load"] : []), .null, .flag(false),
      ]
      return RowChange(
        entity: .entry, id: UUIDText.random(using: &random), values: values,
        stamps: FieldStamps(count: values.count, stamp: stamp))
    }
    let first = BatchCodec.encode(Batch(device: device, seq: 1, created: start, changes: changes))
    guard let headerEnd = first.firstIndex(of: 0x0A),
      let trailerStart = first.dropLast().lastIndex(of: 0x0A)
    else { throw BenchmarkError("a batch without lines") }
    let header = String(decoding: first[...headerEnd], as: UTF8.self)
    let trailer = String(decoding: first[(trailerStart + 1)...], as: UTF8.self)
    self.rows = Array(first[(headerEnd + 1)...trailerStart])
    let digest = SHA256.hexDigest(Array(first[...trailerStart]))
    var headers: [[UInt8]] = []
    var trailers: [[UInt8]] = []
    for seq in 1...count {
      let line = Array(header.replacing("\"seq\":1,", with: "\"seq\":\(seq),").utf8)
      headers.append(line)
      trailers.append(
        Array(trailer.replacing(digest, with: SHA256.hexDigest(line + self.rows)).utf8))
    }
    self.headers = headers
    self.trailers = trailers
    self.count = count
    // The server refuses a batch that does not verify; check a few here rather than count 400s.
    for seq in [1, count] {
      guard let batch = try? BatchCodec.decode(body(seq: seq)), batch.seq == seq,
        batch.changes.count == rows
      else {
        throw BenchmarkError("load batch \(seq) of \(device) does not decode")
      }
    }
  }

  /// The bytes of batch `seq` (from 1).
  func body(seq: Int) -> [UInt8] {
    headers[seq - 1] + rows + trailers[seq - 1]
  }
}

/// One client of the load: a thread with one keep-alive HTTP/1.1 connection on a blocking socket,
/// alternating a push and a pull until the window ends or its batches run out.
final class LoadClient: @unchecked Sendable {
  /// When the clients start, warm up, are measured and stop (monotonic nanoseconds).
  struct Window {
    let start: UInt64
    var measureFrom: UInt64 { start + UInt64(BenchmarkSuite.loadWarmupSeconds * 1e9) }
    var end: UInt64 { measureFrom + UInt64(BenchmarkSuite.loadSeconds * 1e9) }
  }

  let port: Int
  let token: String
  let device: String
  private let batchCount: Int
  private let rows: Int
  private let seed: UInt64
  private var batches: LoadBatches?
  private(set) var failures: [String] = []
  private(set) var pushes = 0
  private(set) var pulledBatches = 0
  /// When the client stopped early for want of batches (nil when the window ended first).
  private(set) var stoppedAt: UInt64?
  /// Start and end (monotonic ns) of every answered request.
  private var starts: [UInt64] = []
  private var ends: [UInt64] = []
  private var gate: LoadGate?

  init(port: Int, token: String, device: String, batches: Int, rows: Int, seed: UInt64) {
    self.port = port
    self.token = token
    self.device = device
    batchCount = batches
    self.rows = rows
    self.seed = seed
    starts.reserveCapacity(2 * batches + 16)
    ends.reserveCapacity(2 * batches + 16)
  }

  func answered(between from: UInt64, and to: UInt64) -> Int {
    ends.count(where: { $0 >= from && $0 < to })
  }

  /// Latencies in seconds of the requests started in the window.
  func latencies(startedBetween from: UInt64, and to: UInt64) -> [Double] {
    zip(starts, ends).filter { $0.0 >= from && $0.0 < to }.map { Double($0.1 - $0.0) / 1e9 }
  }

  /// Runs every client on its own thread and waits for all of them.
  ///
  /// - Parameter measure: read when the last client is ready (CPU times, say).
  /// - Returns: when they started, all together, once every one had built its batches, and what
  ///   `measure` read then.
  static func runAll<Reading: Sendable>(
    _ clients: [LoadClient], measure: @escaping @Sendable () -> Reading
  ) -> (start: UInt64, reading: Reading) {
    let reading = Mutex<Reading?>(nil)
    let gate = LoadGate(clients: clients.count) { reading.withLock { $0 = measure() } }
    var threads: [pthread_t] = []
    for client in clients {
      client.gate = gate
      var thread = pthread_t()
      let context = Unmanaged.passRetained(client).toOpaque()
      let created = pthread_create(
        &thread, nil,
        { context in
          if let context { Unmanaged<LoadClient>.fromOpaque(context).takeRetainedValue().run() }
          return nil
        }, context)
      if created == 0 {
        threads.append(thread)
      } else {
        Unmanaged<LoadClient>.fromOpaque(context).release()
        client.failures.append("cannot start a thread: \(String(cString: strerror(created)))")
        _ = gate.ready()
      }
    }
    for thread in threads { pthread_join(thread, nil) }
    let start = gate.ready()
    return (start, reading.withLock { $0 } ?? measure())
  }

  private func run() {
    var random = SplitMix64(seed: seed)
    do {
      batches = try LoadBatches(device: device, count: batchCount, rows: rows, random: &random)
    } catch {
      failures.append("\(error)")
    }
    let window = Window(start: gate?.ready() ?? 0)
    guard let batches else { return }
    while MonotonicClock.nanoseconds() < window.start { usleep(1_000) }
    var connection: HTTPConnection?
    var cursor = ""
    var next = 0
    var pushing = true
    while MonotonicClock.nanoseconds() < window.end {
      if pushing && next == batches.count {
        stoppedAt = MonotonicClock.nanoseconds()
        break
      }
      let request: [UInt8]
      if pushing {
        let body = batches.body(seq: next + 1)
        request =
          Array(
            ("PUT /v1/batches/\(device)/\(next + 1) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
              + "Content-Type: application/vnd.lifelog.batch\r\nContent-Length: \(body.count)\r\n\r\n")
              .utf8) + body
      } else {
        request = Array(
          ("GET /v1/changes?after=\(cursor)&exclude=\(device)&limit=100 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: Bearer \(token)\r\n\r\n").utf8)
      }
      do {
        if connection == nil { connection = try HTTPConnection(port: port) }
        guard let open = connection else { break }
        let started = MonotonicClock.nanoseconds()
        let response = try open.exchange(request)
        let finished = MonotonicClock.nanoseconds()
        if response.close { connection = nil }
        guard response.status == (pushing ? 201 : 200) else {
          failures.append(
            "\(pushing ? "push" : "pull") answered \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))"
          )
          break
        }
        starts.append(started)
        ends.append(finished)
        if pushing {
          pushes += 1
          next += 1
        } else if let index = LoadClient.index(of: response.body) {
          cursor = index.cursor
          pulledBatches += index.batches
        }
        pushing.toggle()
      } catch {
        failures.append("\(error)")
        break
      }
    }
  }

  /// The `cursor` and the number of batches of a page of changes (``ChangesBody``).
  static func index(of body: [UInt8]) -> (cursor: String, batches: Int)? {
    guard let page = try? ChangesBody(parsing: body) else { return nil }
    return (page.cursor, page.items.count)
  }
}

/// Starts the clients together: each says when its batches are built; the last one sets the
/// start 100 ms later.
final class LoadGate: Sendable {
  private let state: Mutex<(waiting: Int, start: UInt64?)>
  private let whenReady: @Sendable () -> Void

  /// - Parameter whenReady: called once, by the last client to be ready.
  init(clients: Int, whenReady: @escaping @Sendable () -> Void) {
    state = Mutex((clients, nil))
    self.whenReady = whenReady
  }

  /// Says one client is ready (after the first call per client, it only waits) and returns the
  /// start once every client is.
  func ready() -> UInt64 {
    let last = state.withLock { state -> Bool in
      guard state.start == nil else { return false }
      state.waiting -= 1
      return state.waiting <= 0
    }
    if last {
      whenReady()
      state.withLock { $0.start = MonotonicClock.nanoseconds() + 100_000_000 }
    }
    while true {
      if let start = state.withLock({ $0.start }) { return start }
      usleep(1_000)
    }
  }
}
