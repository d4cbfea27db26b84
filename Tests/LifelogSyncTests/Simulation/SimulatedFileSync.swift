import Foundation

/// A file-syncing service (Syncthing, Dropbox, a USB stick carried around) between the devices'
/// own copies of the remote folder.
///
/// After a device syncs, every file it wrote in its copy (its batches, snapshots) and every file
/// it deleted (compaction) goes in flight to every other copy. Deliveries happen later, one at a
/// time, in random order: late, out of order, some twice (a delete may arrive before the file it
/// deletes, which then comes back), and sometimes a damaged copy first (cut short, or with a byte
/// changed, as a tool still copying leaves it) that is replaced when the whole file arrives.
final class SimulatedFileSync {
  enum Payload {
    case whole([UInt8])
    case damaged([UInt8])
    case removal
  }

  /// Shared by the damaged and whole copies of one file to one folder: once the whole copy has
  /// landed, a damaged one still in flight is dropped (a tool never cuts a finished file short).
  final class Transfer {
    var completed = false
  }

  struct Delivery {
    var destination: Int
    var path: String
    var payload: Payload
    var transfer: Transfer
  }

  struct Statistics {
    var whole = 0
    var damaged = 0
    var removals = 0
  }

  /// Each device's copy of the remote folder.
  let folders: [String]
  /// The folder each device writes its own batches in, relative to its copy.
  let ownBatchFolders: [String]
  private(set) var inFlight: [Delivery] = []
  private(set) var statistics = Statistics()
  /// Per copy: the files known to be there (written by its device or delivered), with their sizes.
  private var present: [[String: Int]]

  init(folders: [String], deviceIDs: [String]) {
    self.folders = folders
    ownBatchFolders = deviceIDs.map { "devices/" + $0 }
    present = Array(repeating: [:], count: folders.count)
  }

  // MARK: - Picking up what a device wrote

  /// Puts in flight every file `source` wrote or deleted in its copy since the last look.
  func collect(from source: Int, random: inout SimulationRandom) throws {
    var seen: Set<String> = []
    for folder in [ownBatchFolders[source], "snapshots"] {
      let names =
        (try? FileManager.default.contentsOfDirectory(atPath: folders[source] + "/" + folder)) ?? []
      for name in names.sorted() where !name.hasPrefix(".") {
        let path = folder + "/" + name
        seen.insert(path)
        guard let size = SimulatedFileSync.size(of: folders[source] + "/" + path),
          present[source][path] != size
        else { continue }
        let bytes = try [UInt8](
          Data(contentsOf: URL(fileURLWithPath: folders[source] + "/" + path)))
        present[source][path] = bytes.count
        send(path: path, bytes: bytes, from: source, random: &random)
      }
    }
    for path in present[source].keys.sorted() where !seen.contains(path) {
      guard path.hasPrefix(ownBatchFolders[source] + "/") || path.hasPrefix("snapshots/") else {
        continue
      }
      present[source][path] = nil
      for destination in folders.indices where destination != source {
        let copies = random.chance(0.1) ? 2 : 1
        for _ in 0..<copies {
          inFlight.append(
            Delivery(destination: destination, path: path, payload: .removal, transfer: Transfer()))
        }
      }
    }
  }

  private func send(path: String, bytes: [UInt8], from source: Int, random: inout SimulationRandom)
  {
    for destination in folders.indices where destination != source {
      let transfer = Transfer()
      if random.chance(0.2), !bytes.isEmpty {
        var damaged = bytes
        if random.chance(0.8) {
          damaged.removeLast(random.int(1...bytes.count))
        } else {
          damaged[random.int(0...(bytes.count - 1))] ^= UInt8(random.int(1...255))
        }
        inFlight.append(
          Delivery(
            destination: destination, path: path, payload: .damaged(damaged), transfer: transfer))
      }
      let copies = random.chance(0.15) ? 2 : 1
      for _ in 0..<copies {
        inFlight.append(
          Delivery(destination: destination, path: path, payload: .whole(bytes), transfer: transfer)
        )
      }
    }
  }

  // MARK: - Delivering

  /// Delivers up to `count` random deliveries to copies that are online.
  func deliver(count: Int, online: (Int) -> Bool, random: inout SimulationRandom) throws {
    for _ in 0..<count {
      let candidates = inFlight.indices.filter { online(inFlight[$0].destination) }
      guard !candidates.isEmpty else { return }
      try deliver(at: random.pick(candidates))
    }
  }

  /// Delivers everything in flight, in random order.
  func deliverAll(random: inout SimulationRandom) throws {
    while !inFlight.isEmpty {
      try deliver(at: random.int(0...(inFlight.count - 1)))
    }
  }

  private func deliver(at index: Int) throws {
    let delivery = inFlight[index]
    inFlight.swapAt(index, inFlight.count - 1)
    inFlight.removeLast()
    let target = folders[delivery.destination] + "/" + delivery.path
    switch delivery.payload {
    case .removal:
      statistics.removals += 1
      try? FileManager.default.removeItem(atPath: target)
      present[delivery.destination][delivery.path] = nil
    case .damaged(let bytes):
      guard !delivery.transfer.completed else { return }
      statistics.damaged += 1
      try write(bytes, to: target)
      present[delivery.destination][delivery.path] = bytes.count
    case .whole(let bytes):
      statistics.whole += 1
      delivery.transfer.completed = true
      try write(bytes, to: target)
      present[delivery.destination][delivery.path] = bytes.count
    }
  }

  /// Writes in place, not through a temporary name: a reader may see a damaged copy.
  private func write(_ bytes: [UInt8], to path: String) throws {
    let parent = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  private static func size(of path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_size)
  }
}
