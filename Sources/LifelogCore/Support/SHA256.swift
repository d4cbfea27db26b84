/// SHA-256 (FIPS 180-4), written here because the Swift toolchain on Linux has none.
///
/// Used for name-derived activity ids, batch checksums and the content-derived ids of imported
/// rows (a million-row import hashes a million short messages, so it allocates little).
public enum SHA256 {
  /// The 32-byte digest of `message`.
  ///
  /// The state, the message schedule and the padded tail live in temporary (stack) buffers, not
  /// in three arrays allocated and freed per message: a million-row import hashes a million short
  /// messages.
  public static func hash(_ message: [UInt8]) -> [UInt8] {
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 72) { scratch in
      let state = UnsafeMutableBufferPointer(rebasing: scratch[0..<8])
      let words = UnsafeMutableBufferPointer(rebasing: scratch[8..<72])
      for (index, value) in initialState.enumerated() { state[index] = value }
      let wholeBlocks = message.count / 64
      let tailCount = message.count - wholeBlocks * 64
      message.withUnsafeBufferPointer { bytes in
        // Whole blocks straight from the message; only the tail is copied to be padded. Only an
        // empty message has no address, and it has no whole block.
        guard let start = bytes.baseAddress else { return }
        for block in 0..<wholeBlocks { compress(start + block * 64, state, words) }
      }
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
        // The tail, 0x80, zeros, then the length in bits: one block, or two when the length
        // does not fit after the tail.
        let paddedCount = tailCount < 56 ? 64 : 128
        for index in 0..<tailCount { tail[index] = message[wholeBlocks * 64 + index] }
        tail[tailCount] = 0x80
        for index in (tailCount + 1)..<(paddedCount - 8) { tail[index] = 0 }
        let bitLength = UInt64(message.count) &* 8
        for index in 0..<8 {
          tail[paddedCount - 8 + index] = UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * index))
        }
        // A temporary allocation of 128 bytes always has an address.
        guard let start = tail.baseAddress else { return }
        for block in 0..<(paddedCount / 64) { compress(start + block * 64, state, words) }
      }
      var digest: [UInt8] = []
      digest.reserveCapacity(32)
      for word in state {
        for shift in stride(from: 24 as UInt32, through: 0, by: -8) {
          digest.append(UInt8(truncatingIfNeeded: word >> shift))
        }
      }
      return digest
    }
  }

  private static let initialState: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19,
  ]

  /// Mixes one 64-byte block into `state`.
  ///
  /// The rounds go eight at a time with the working variables renamed from one round to the next
  /// (as C implementations do with macros) rather than shifted through a tuple, which cost a
  /// register move per variable per round.
  private static func compress(
    _ block: UnsafePointer<UInt8>, _ state: UnsafeMutableBufferPointer<UInt32>,
    _ w: UnsafeMutableBufferPointer<UInt32>
  ) {
    for i in 0..<16 {
      w[i] =
        UInt32(block[i * 4]) << 24 | UInt32(block[i * 4 + 1]) << 16 | UInt32(block[i * 4 + 2])
        << 8
        | UInt32(block[i * 4 + 3])
    }
    for i in 16..<64 {
      let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
      let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
      w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
    }
    var (a, b, c, d, e, f, g, h) = (
      state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
    )
    roundConstants.withUnsafeBufferPointer { k in
      for i in stride(from: 0, to: 64, by: 8) {
        round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
        round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
        round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
        round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
        round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
        round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
        round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
        round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
      }
    }
    state[0] &+= a
    state[1] &+= b
    state[2] &+= c
    state[3] &+= d
    state[4] &+= e
    state[5] &+= f
    state[6] &+= g
    state[7] &+= h
  }

  /// One round: `d` and `h` take their new values; the caller renames the other six.
  @inline(__always)
  private static func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32,
    _ g: UInt32, _ h: inout UInt32, _ constantAndWord: UInt32
  ) {
    let t1 =
      h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ constantAndWord
    let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
    d &+= t1
    h = t1 &+ t2
  }

  /// The digest as 64 lower-case hex digits.
  public static func hexDigest(_ message: [UInt8]) -> String {
    UUIDText.hex(hash(message))
  }

  private static func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
  }

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7,
    0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc,
    0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351,
    0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e,
    0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585,
    0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f,
    0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]
}
