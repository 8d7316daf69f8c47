import Foundation

/// A request to the preview server, parsed and checked: the server answers only GET and HEAD
/// of a few fixed paths, so anything else about a request is refused here, before routing.
///
/// The parser is strict on purpose: a request line and headers of at most
/// ``HTTPRequest/Limits/maximumHeaderBytes``, no body, origin-form targets only, and a path
/// that cannot name a parent folder however it is encoded. The server never maps a path to a
/// file, so this is defence in depth, and it makes a probe (`/../../etc/passwd`,
/// `/%2e%2e/…`) a plain 400 in the log.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    /// The path, percent-decoded (`/wait`).
    public var path: String
    /// The query's fields, percent-decoded (`version` → `3`); a repeated name keeps its last value.
    public var query: [String: String]
    /// Header names lower-cased, in the order they came.
    public var headers: [(name: String, value: String)]

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.path == b.path && a.query == b.query
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    /// The first value of header `name` (lower-case).
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// How much of a request the server reads.
    public struct Limits: Sendable {
        /// Request line and headers together. 8 KiB is what many servers allow (nginx's
        /// default buffer is 1 KiB, Apache's limit 8 KiB); a browser's request to this server
        /// is about 500 bytes.
        public var maximumHeaderBytes = 8 * 1024
        /// The request target (path and query). A page's own requests are under 40 bytes.
        public var maximumTargetBytes = 1024
        /// Header lines.
        public var maximumHeaders = 64
        public init() {}
    }

    /// What reading the bytes so far gave.
    public enum Parse: Sendable, Equatable {
        /// The headers have not ended yet, and the limit is not reached.
        case incomplete
        case request(HTTPRequest)
        /// A response status (400, 405, 413, 414, 431, 505) and why, for the body.
        case refused(status: Int, reason: String)
    }

    /// Parses `bytes`, everything read from the connection so far.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) -> Parse {
        guard let end = headerEnd(bytes) else {
            return bytes.count > limits.maximumHeaderBytes
                ? .refused(status: 431, reason: "The request's headers are longer than \(limits.maximumHeaderBytes) bytes.") : .incomplete
        }
        guard end <= limits.maximumHeaderBytes else {
            return .refused(status: 431, reason: "The request's headers are longer than \(limits.maximumHeaderBytes) bytes.")
        }
        // Header bytes are ASCII in practice; anything that is not UTF-8 is refused rather
        // than guessed at.
        guard let text = String(validating: bytes[..<end], as: UTF8.self) else {
            return .refused(status: 400, reason: "The request is not UTF-8 text.")
        }
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .refused(status: 400, reason: "The request line is not 'METHOD TARGET HTTP/1.x'.") }
        let (method, target, version) = (String(parts[0]), String(parts[1]), String(parts[2]))
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return version.hasPrefix("HTTP/") ? .refused(status: 505, reason: "Only HTTP/1.0 and HTTP/1.1 are served.")
                : .refused(status: 400, reason: "The request line is not 'METHOD TARGET HTTP/1.x'.")
        }
        guard !method.isEmpty, method.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) else {
            return .refused(status: 400, reason: "The method is not a token.")
        }
        guard target.utf8.count <= limits.maximumTargetBytes else {
            return .refused(status: 414, reason: "The request target is longer than \(limits.maximumTargetBytes) bytes.")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            guard headers.count < limits.maximumHeaders else {
                return .refused(status: 431, reason: "The request has more than \(limits.maximumHeaders) headers.")
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  line[..<colon].allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                return .refused(status: 400, reason: "A header line is not 'Name: value'.")
            }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        if headers.contains(where: { $0.name == "transfer-encoding" })
            || headers.contains(where: { $0.name == "content-length" && $0.value != "0" }) {
            return .refused(status: 413, reason: "This server takes no request bodies.")
        }
        guard method == "GET" || method == "HEAD" else {
            return .refused(status: 405, reason: "Only GET and HEAD are served.")
        }
        if version == "HTTP/1.1" && !headers.contains(where: { $0.name == "host" }) {
            return .refused(status: 400, reason: "An HTTP/1.1 request needs a Host header.")
        }
        switch checkedTarget(target) {
        case .success(let (path, query)): return .request(HTTPRequest(method: method, path: path, query: query, headers: headers))
        case .failure(let refusal): return .refused(status: 400, reason: refusal.reason)
        }
    }

    struct Refusal: Error { var reason: String }

    /// The path and query of an origin-form target ("/wait?version=2"), percent-decoded, or
    /// why it is refused: not starting with "/", a bad escape, a NUL, a backslash, an encoded
    /// slash, or a "." or ".." segment in any spelling.
    static func checkedTarget(_ target: String) -> Result<(String, [String: String]), Refusal> {
        guard target.hasPrefix("/") else {
            return .failure(Refusal(reason: "The target must be a path starting with '/' (no absolute URLs, no '*')."))
        }
        let (rawPath, rawQuery) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        // An encoded slash or backslash would hide a segment boundary from the check below.
        let lowered = rawPath.lowercased()
        if lowered.contains("%2f") || lowered.contains("%5c") {
            return .failure(Refusal(reason: "The path contains an encoded '/' or '\\'."))
        }
        guard let path = percentDecoded(rawPath, plusIsSpace: false) else {
            return .failure(Refusal(reason: "The path has a bad percent escape or is not UTF-8."))
        }
        if path.contains("\0") || path.contains("\\") {
            return .failure(Refusal(reason: "The path contains a NUL or a backslash."))
        }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." }) {
            return .failure(Refusal(reason: "The path names a '.' or '..' segment."))
        }
        var query: [String: String] = [:]
        for field in rawQuery.split(separator: "&") where !field.isEmpty {
            let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecoded(String(pair[0]), plusIsSpace: true),
                  let value = percentDecoded(pair.count > 1 ? String(pair[1]) : "", plusIsSpace: true) else {
                return .failure(Refusal(reason: "The query has a bad percent escape or is not UTF-8."))
            }
            query[name] = value
        }
        return .success((path, query))
    }

    /// `text` with its %XX escapes decoded (and '+' as a space in a query), or nil for a bad
    /// escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let c = utf8.popFirst() {
            if c == UInt8(ascii: "%") {
                guard let h = utf8.popFirst().flatMap(hex), let l = utf8.popFirst().flatMap(hex) else { return nil }
                bytes.append(h << 4 | l)
            } else if c == UInt8(ascii: "+") && plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(c)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The offset just past the blank line that ends the headers, or nil.
    static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }
}
