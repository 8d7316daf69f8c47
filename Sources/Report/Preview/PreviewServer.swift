import Compositor
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP server on 127.0.0.1 that serves one page, the newest one published, and lets
/// the page wait for the next (`compose preview`).
///
/// It answers only these, to GET and HEAD:
/// - `/` (and `/index.html`): the page, `text/html`;
/// - `/version`: `{"version":N}` at once;
/// - `/wait?version=N`: `{"version":M}` as soon as the page's version is not N, or after
///   ``Limits/waitSeconds`` with M = N (the page's script then asks again).
///
/// Every other path is a 404; nothing in a request is ever mapped to a file, so no request
/// reaches the file system. Requests are parsed strictly (``HTTPRequest/parse(_:limits:)``),
/// bounded in size, time and number, and answered with `Connection: close`. The `Host` header
/// must name the loopback address or `localhost`, so a web page elsewhere cannot reach the
/// server through a DNS name rebound to 127.0.0.1.
///
/// ```swift
/// let server = try PreviewServer(port: 0)
/// server.publish { version in "<!doctype html><body data-version=\"\(version)\">…" }
/// print("http://127.0.0.1:\(server.port)/")
/// server.serve()   // until server.stop(), from another thread or a signal handler
/// ```
public final class PreviewServer: @unchecked Sendable {
    /// What the server accepts and for how long it waits.
    public struct Limits: Sendable {
        public var request = HTTPRequest.Limits()
        /// Connections open at once; one more is answered 503 and closed. A page holds one
        /// (its long poll) and briefly a second; 32 leaves room for many tabs.
        public var maximumConnections = 32
        /// How long a client may take to send its request: a slow or silent client holds a
        /// connection this long, no longer.
        public var readSeconds = 5.0
        /// How long `/wait` holds a request before answering "unchanged": under the 30–60 s
        /// after which proxies and browsers may drop an idle request.
        public var waitSeconds = 25.0
        public init() {}
    }

    /// The port the server listens on (the one the system chose, when asked for port 0).
    public let port: UInt16
    public let limits: Limits
    /// Called with a line for each refused request ("400 GET /../etc/passwd: …"), from the
    /// connection's thread.
    public var log: (@Sendable (String) -> Void)?

    private let listener: Int32
    private let state = NSCondition()
    private var version = 0
    private var page = Data()
    private var stopped = false
    private var connections = 0
    /// Connection threads by number (touched by `serve` only), and the numbers of those that
    /// have finished (under `state`), which `serve` joins.
    private var connectionThreads: [Int: JoinableThread] = [:]
    private var finishedConnections: [Int] = []
    private var connectionNumber = 0
    private let publishing = NSLock()

    /// Listens on 127.0.0.1 at `port` (0: any free port).
    /// - Throws: ``PreviewServerError`` when the port is taken or the socket cannot be made.
    public init(port: UInt16, limits: Limits = Limits()) throws {
        self.limits = limits
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw PreviewServerError.socket(String(cString: strerror(errno))) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1 and nothing else
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw code == EADDRINUSE ? PreviewServerError.portInUse(port) : PreviewServerError.socket(String(cString: strerror(code)))
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = UInt16(bigEndian: actual.sin_port)
        self.listener = fd
    }

    deinit { close(listener) }

    /// The version of the page now served: 0 before the first `publish`.
    public var currentVersion: Int {
        state.lock(); defer { state.unlock() }
        return version
    }

    /// Serves a new page: `makePage` gets its version (one more than the last) to embed, and
    /// waiting clients are answered.
    public func publish(_ makePage: (Int) -> String) {
        publishing.lock(); defer { publishing.unlock() }
        let next = currentVersion + 1
        let data = Data(makePage(next).utf8)
        state.lock()
        version = next
        page = data
        state.broadcast()
        state.unlock()
    }

    /// How many connections are being answered now (each counts until its thread has closed
    /// it, a moment after the client sees the end).
    public var openConnections: Int {
        state.lock(); defer { state.unlock() }
        return connections
    }

    /// Accepts connections until `stop()`, each answered on a thread of its own; returns once
    /// the listener is closed and open connections have finished (at most a second later).
    public func serve() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if isStopped { break }
                // EMFILE and the like: back off rather than spin.
                usleep(50_000)
                continue
            }
            state.lock()
            let admitted = !stopped && connections < limits.maximumConnections
            if admitted { connections += 1 }
            state.unlock()
            guard admitted else {
                if !isStopped { send(client, response(status: 503, reason: "Too many connections at once; try again.", head: false)) }
                close(client)
                continue
            }
            let number = connectionNumber
            connectionNumber += 1
            connectionThreads[number] = JoinableThread { [self] in
                handle(client)
                close(client)
                state.lock()
                connections -= 1
                finishedConnections.append(number)
                state.broadcast()
                state.unlock()
            }
            joinFinishedConnections()
        }
        // Let open connections finish (waiters are woken by `stop`), and join them, so that
        // nothing they hold outlives `serve` (see `JoinableThread`); one still reading from a
        // silent client after the second is left to end on its own.
        state.lock()
        let deadline = Date().addingTimeInterval(1)
        while connections > 0 && state.wait(until: deadline) {}
        state.unlock()
        joinFinishedConnections()
        for thread in connectionThreads.values { thread.detach() }
        connectionThreads = [:]
    }

    /// Joins the connection threads that have finished.
    private func joinFinishedConnections() {
        state.lock()
        let finished = finishedConnections
        finishedConnections = []
        state.unlock()
        for number in finished { connectionThreads.removeValue(forKey: number)?.join() }
    }

    /// Stops `serve()`: the listener closes, and waiting requests are answered at once.
    public func stop() {
        state.lock()
        stopped = true
        state.broadcast()
        state.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private var isStopped: Bool {
        state.lock(); defer { state.unlock() }
        return stopped
    }

    // MARK: - One connection

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: Int(limits.readSeconds), tv_usec: Int(limits.readSeconds.truncatingRemainder(dividingBy: 1) * 1e6))
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(limits.readSeconds)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }  // closed, or silent past the timeout: nothing to answer
            received += buffer[..<n]
            switch HTTPRequest.parse(received, limits: limits.request) {
            case .incomplete:
                if Date() > deadline { return }
                continue
            case .refused(let status, let reason):
                log?("\(status) \(firstLine(received)): \(reason)")
                send(client, response(status: status, reason: reason, head: false))
                return
            case .request(let request):
                send(client, respond(to: request))
                return
            }
        }
    }

    /// The response to a well-formed request.
    func respond(to request: HTTPRequest) -> Data {
        let head = request.method == "HEAD"
        if let host = request.header("host"), !isLoopback(host: host) {
            log?("403 \(request.method) \(request.path): Host '\(host)'")
            return response(status: 403, reason: "This server answers only to 127.0.0.1 and localhost.", head: head)
        }
        switch request.path {
        case "/", "/index.html":
            state.lock()
            let body = page
            state.unlock()
            return response(status: 200, type: "text/html; charset=utf-8", body: body, head: head, html: true)
        case "/version":
            return response(status: 200, type: "application/json", body: Data(#"{"version":\#(currentVersion)}"#.utf8), head: head)
        case "/wait":
            guard let text = request.query["version"], let seen = Int(text) else {
                return response(status: 400, reason: "/wait needs ?version=N, the version the page shows.", head: head)
            }
            state.lock()
            let deadline = Date().addingTimeInterval(limits.waitSeconds)
            while version == seen && !stopped && state.wait(until: deadline) {}
            let now = version
            state.unlock()
            return response(status: 200, type: "application/json", body: Data(#"{"version":\#(now)}"#.utf8), head: head)
        default:
            return response(status: 404, reason: "Only / is served here.", head: head)
        }
    }

    private func isLoopback(host: String) -> Bool {
        // "127.0.0.1:8000", "localhost:8000", "[::1]:8000", or without the port.
        var name = host.lowercased()
        if name.hasPrefix("[") { name = String(name.prefix { $0 != "]" }.dropFirst()) }
        else if let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
        return name == "127.0.0.1" || name == "localhost" || name == "::1"
    }

    private func firstLine(_ bytes: [UInt8]) -> String {
        let line = bytes.prefix(200).prefix { $0 != 13 && $0 != 10 }
        return String(decoding: line, as: UTF8.self)
    }

    /// A response of the server's own: a status with a plain-text reason as its body.
    func response(status: Int, reason: String, head: Bool) -> Data {
        response(status: status, type: "text/plain; charset=utf-8", body: Data("\(status) \(Self.statusText[status] ?? ""): \(reason)\n".utf8), head: head)
    }

    func response(status: Int, type: String, body: Data, head: Bool, html: Bool = false) -> Data {
        var lines = [
            "HTTP/1.1 \(status) \(Self.statusText[status] ?? "Status")",
            "Content-Type: \(type)",
            "Content-Length: \(body.count)",
            "Cache-Control: no-store",
            "Connection: close",
            "X-Content-Type-Options: nosniff",
            "Referrer-Policy: no-referrer",
        ]
        if status == 405 { lines.append("Allow: GET, HEAD") }
        if html {
            // The page's own inline style and script, its data: images, and requests to this
            // server only; it may not be framed.
            lines.append("Content-Security-Policy: default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        }
        var data = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        if !head { data += body }
        return data
    }

    static let statusText = [200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
                             413: "Content Too Large", 414: "URI Too Long", 431: "Request Header Fields Too Large",
                             503: "Service Unavailable", 505: "HTTP Version Not Supported"]

    /// Writes all of `data`; a client that went away is not an error worth more than stopping.
    private func send(_ client: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // MSG_NOSIGNAL: a closed connection must not raise SIGPIPE, which would end the
                // whole process.
                let n = Glibc.send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}

/// Why the preview server could not start.
public enum PreviewServerError: Error, CustomStringConvertible, Equatable {
    case portInUse(UInt16)
    case socket(String)

    public var description: String {
        switch self {
        case .portInUse(let port): "port \(port) on 127.0.0.1 is in use; choose another with --port (0: any free port)"
        case .socket(let reason): "cannot listen on 127.0.0.1: \(reason)"
        }
    }
}
