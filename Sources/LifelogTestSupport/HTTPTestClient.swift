import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What an HTTP request got back.
public struct HTTPTestResponse: Sendable {
  public var status: Int
  public var headers: [String: String]
  public var body: [UInt8]

  public var text: String { String(decoding: body, as: UTF8.self) }

  /// A header, by name in any case.
  public func header(_ name: String) -> String? {
    headers.first { $0.key.lowercased() == name.lowercased() }?.value
  }

  /// The body as a JSON object.
  public var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
  }

  /// `error.code` of an error body.
  public var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
}

/// A blocking HTTP client over URLSession, for tests of `lifelog serve`.
public final class HTTPTestClient: @unchecked Sendable {
  public let baseURL: String
  public var token: String?
  private let session: URLSession

  public init(baseURL: String, token: String? = nil) {
    self.baseURL = baseURL
    self.token = token
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 30
    configuration.httpMaximumConnectionsPerHost = 8
    session = URLSession(configuration: configuration)
  }

  /// Sends one request and waits for the answer.
  ///
  /// - Throws: the URLSession error when no answer came (connection refused or reset, timeout).
  public func request(
    _ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:]
  ) throws -> HTTPTestResponse {
    guard let url = URL(string: baseURL + path) else { throw URLError(.badURL) }
    var request = URLRequest(url: url)
    request.httpMethod = method
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body { request.httpBody = Data(body) }
    let box = ResultBox()
    let task = session.dataTask(with: request) { data, response, error in
      if let error {
        box.set(.failure(error))
      } else if let response = response as? HTTPURLResponse {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
          if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        box.set(
          .success(
            HTTPTestResponse(
              status: response.statusCode, headers: headers, body: Array(data ?? Data()))))
      } else {
        box.set(.failure(URLError(.badServerResponse)))
      }
    }
    task.resume()
    return try box.wait().get()
  }

  public func get(_ path: String) throws -> HTTPTestResponse { try request("GET", path) }

  public func put(_ path: String, _ body: [UInt8]) throws -> HTTPTestResponse {
    try request("PUT", path, body: body)
  }
}

private final class ResultBox: @unchecked Sendable {
  private var result: Result<HTTPTestResponse, any Error>?
  private let done = DispatchSemaphore(value: 0)

  func set(_ result: Result<HTTPTestResponse, any Error>) {
    self.result = result
    done.signal()
  }

  func wait() -> Result<HTTPTestResponse, any Error> {
    done.wait()
    return result ?? .failure(URLError(.unknown))
  }
}
