import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP client for 127.0.0.1, for the tests of `compose preview`'s server: it sends
/// bytes exactly as given (malformed requests and traversal attempts a browser would never
/// send) and reads the answer to its end, as the server closes every connection after one.
public enum Loopback {
    /// A connection to 127.0.0.1:`port`, reads timing out after 30 s (a hung server fails the
    /// test instead of stalling the suite).
    public static func connect(_ port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(r == 0, "connect: \(String(cString: strerror(errno)))")
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends `bytes` on `fd` (without SIGPIPE if the server has closed it).
    public static func send(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything `fd` gives until it closes (or the read times out), as text.
    public static func readToEnd(_ fd: Int32) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One request on a new connection, the whole answer back; `closeWrite` ends the sending
    /// side after the bytes (a client that sends a partial request and stops).
    public static func exchange(_ port: UInt16, _ bytes: [UInt8], closeWrite: Bool = false) -> String {
        let fd = connect(port)
        defer { close(fd) }
        send(fd, bytes)
        if closeWrite { shutdown(fd, Int32(SHUT_WR)) }
        return readToEnd(fd)
    }

    public static func exchange(_ port: UInt16, _ text: String) -> String { exchange(port, Array(text.utf8)) }
}
