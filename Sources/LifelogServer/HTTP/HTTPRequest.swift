import CLifelogHTTPD

/// One request as libmicrohttpd delivered it: method, path, headers, query and body.
///
/// A view over the C request, valid only while the handler that received it runs.
public struct HTTPRequest {
  let handle: OpaquePointer

  /// The method: `GET`, `PUT`, and so on.
  public var method: String { String(cString: lh_method(handle)) }

  /// The percent-decoded path, without the query string.
  public var path: String { String(cString: lh_path(handle)) }

  /// A header by name (case-insensitive).
  public func header(_ name: String) -> String? {
    lh_header(handle, name).map { String(cString: $0) }
  }

  /// A percent-decoded query argument.
  public func query(_ name: String) -> String? {
    lh_query(handle, name).map { String(cString: $0) }
  }

  /// The whole body (complete only once the request is complete).
  public var body: [UInt8] {
    var length = 0
    guard let bytes = lh_body(handle, &length), length > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: bytes, count: length))
  }

  /// Whether the body is, or was declared to be, larger than the server keeps.
  public var bodyTooLarge: Bool { lh_body_too_large(handle) != 0 }

  /// Requests the server has begun and not completed, this one included.
  var activeRequests: Int { Int(lh_request_active(handle)) }

  /// Monotonic nanoseconds when the headers arrived.
  var startedNanoseconds: UInt64 { lh_started_ns(handle) }

  /// A number kept with the request between its two phases (the authenticated user's id).
  var tag: Int64 {
    get { lh_tag(handle) }
    nonmutating set { lh_set_tag(handle, newValue) }
  }
}
