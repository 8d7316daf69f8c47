import Foundation
import Report
import Testing

@Suite struct HTTPRequestTests {
    private func parse(_ text: String, limits: HTTPRequest.Limits = .init()) -> HTTPRequest.Parse {
        HTTPRequest.parse(Array(text.utf8), limits: limits)
    }

    private func status(_ text: String) -> Int? {
        if case .refused(let status, _) = parse(text) { return status }
        return nil
    }

    @Test func aBrowsersRequest() throws {
        let request = "GET /wait?version=12&x=a%20b+c HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUser-Agent: test\r\nAccept: */*\r\n\r\n"
        guard case .request(let r) = parse(request) else { Issue.record("not parsed: \(parse(request))"); return }
        #expect(r.method == "GET")
        #expect(r.path == "/wait")
        #expect(r.query == ["version": "12", "x": "a b c"])
        #expect(r.headers.map(\.name) == ["host", "user-agent", "accept"])
        #expect(r.header("host") == "127.0.0.1:8000")
    }

    @Test func incompleteUntilTheBlankLine() {
        #expect(parse("GET / HTTP/1.1\r\nHost: x\r\n") == .incomplete)
        #expect(parse("") == .incomplete)
        guard case .request = parse("GET / HTTP/1.1\r\nHost: x\r\n\r\n") else { Issue.record("not parsed"); return }
    }

    /// Every spelling of a parent folder is refused before routing, whatever follows it.
    @Test(arguments: [
        "/../../etc/passwd", "/..", "/a/../b", "/./x", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E/etc/passwd", "/.%2e/etc/passwd",
        "/..%2fetc%2fpasswd", "/..%2Fetc", "/..%5c..%5cwindows", "/a\\..\\b", "/%00", "/%zz", "/%c0%ae%c0%ae/etc/passwd",
    ])
    func traversalIsRefused(_ target: String) {
        #expect(status("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n") == 400, "\(target)")
    }

    @Test func targetsThatAreNotPathsAreRefused() {
        #expect(status("GET http://example.com/ HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET * HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n") == 405, "the method is refused first")
        #expect(status("GET  / HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET /\r\n\r\n") == 400)
    }

    @Test func methodsVersionsAndBodies() {
        #expect(status("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc") == 413)
        #expect(status("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n") == 413)
        #expect(status("DELETE / HTTP/1.1\r\nHost: x\r\n\r\n") == 405)
        #expect(status("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n") == 405)
        #expect(status("GET / HTTP/2.0\r\nHost: x\r\n\r\n") == 505)
        #expect(status("GET / FTP/1.0\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\n\r\n") == 400, "HTTP/1.1 without Host")
        guard case .request = parse("GET / HTTP/1.0\r\n\r\n") else { Issue.record("HTTP/1.0 without Host is valid"); return }
        guard case .request(let head) = parse("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n") else { Issue.record("HEAD"); return }
        #expect(head.method == "HEAD")
    }

    @Test func sizesAreBounded() {
        let limits = HTTPRequest.Limits()
        // Headers that never end stop being read at the limit.
        let endless = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: limits.maximumHeaderBytes)
        #expect(status(endless) == 431)
        let long = "GET /" + String(repeating: "a", count: limits.maximumTargetBytes) + " HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(status(long) == 414)
        let many = "GET / HTTP/1.1\r\n" + (0...limits.maximumHeaders).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        #expect(status(many) == 431)
        #expect(status("GET / HTTP/1.1\r\nHost x\r\n\r\n") == 400, "a header without a colon")
        #expect(HTTPRequest.parse([0x47, 0x45, 0x54, 0x20, 0x2F, 0xFF, 0x20] + Array(" HTTP/1.1\r\n\r\n".utf8)) == .refused(status: 400, reason: "The request is not UTF-8 text."))
    }
}
