import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why no browser could be started: printed by the tests that need one, which are then
/// skipped (never silently).
struct BrowserUnavailable: Error, CustomStringConvertible {
    var description: String
}

/// Headless Chromium driven through the DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: JSON messages ended by a NUL byte, the browser reading fd 3
/// and writing fd 4), so no WebSocket and no outside package is needed.
final class HeadlessBrowser: @unchecked Sendable {
    /// The browser's executable: `$CHROMIUM`, else the first of Debian's names found.
    static func executable() -> String? {
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"], !path.isEmpty { return path }
        return ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a browser starts here, checked once; the reason when it does not.
    static let availability: Result<Void, BrowserUnavailable> = {
        do {
            let browser = try HeadlessBrowser()
            browser.close()
            return .success(())
        } catch let error as BrowserUnavailable {
            return .failure(error)
        } catch {
            return .failure(BrowserUnavailable(description: "\(error)"))
        }
    }()

    /// For `.enabled(if:)`: true when a browser starts; otherwise prints why, so a skip is
    /// never silent.
    static var isAvailable: Bool {
        if case .failure(let reason) = availability {
            FileHandle.standardError.write(Data("SKIPPED browser tests: headless Chromium cannot start here: \(reason)\n".utf8))
            return false
        }
        return true
    }

    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: URL
    private let log: URL
    private let state = NSCondition()
    private var responses: [Int: [String: Any]] = [:]
    private var nextID = 1
    private var closed = false

    /// Starts the browser with a fresh profile and checks that it answers.
    init() throws {
        guard let executable = Self.executable() else {
            throw BrowserUnavailable(description: "no chromium executable (install Debian's 'chromium', or set CHROMIUM)")
        }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("compose-browser-\(UUID())")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        log = profile.appendingPathComponent("chromium.log")
        var down: [Int32] = [0, 0], up: [Int32] = [0, 0]
        guard pipe(&down) == 0, pipe(&up) == 0 else {
            throw BrowserUnavailable(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec, so the browser gets only the ends dup2'd to 3 and 4.
        for fd in down + up { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var arguments = [executable, "--headless", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)",
                         "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                         "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
                         "--hide-scrollbars", "--force-color-profile=srgb", "--force-device-scale-factor=1", "about:blank"]
        // Chromium's sandbox refuses to run as root; the pages loaded are this project's own.
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 1) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, down[0], 3)
        posix_spawn_file_actions_adddup2(&actions, up[1], 4)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        Glibc.close(down[0])
        Glibc.close(up[1])
        guard spawned == 0 else {
            Glibc.close(down[1]); Glibc.close(up[0])
            throw BrowserUnavailable(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        pid = child
        toBrowser = down[1]
        fromBrowser = up[0]
        Thread.detachNewThread { [self] in readMessages() }
        do {
            _ = try send("Browser.getVersion", timeout: 30)
        } catch {
            let tail = (try? String(contentsOf: log, encoding: .utf8)).map { String($0.suffix(600)) } ?? ""
            close()
            throw BrowserUnavailable(description: "\(executable) did not answer: \(error). Its log ends: \(tail)")
        }
    }

    deinit { close() }

    /// Closes the browser (politely, then by signal) and removes its profile.
    func close() {
        state.lock()
        let already = closed
        closed = true
        state.broadcast()
        state.unlock()
        if already { return }
        _ = try? write(["id": 0, "method": "Browser.close"])
        Glibc.close(toBrowser)
        var status: Int32 = 0
        for _ in 0..<50 where waitpid(pid, &status, WNOHANG) == 0 { usleep(100_000) }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        Glibc.close(fromBrowser)
        try? FileManager.default.removeItem(at: profile)
    }

    // MARK: - Protocol

    struct ProtocolError: Error, CustomStringConvertible { var description: String }

    /// Sends a command and waits for its result.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: Double = 30) throws -> [String: Any] {
        state.lock()
        let id = nextID
        nextID += 1
        state.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        try write(message)
        state.lock()
        defer { state.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while responses[id] == nil && !closed {
            guard state.wait(until: deadline) else { throw ProtocolError(description: "\(method): no answer in \(timeout) s") }
        }
        guard let response = responses.removeValue(forKey: id) else { throw ProtocolError(description: "\(method): the browser closed") }
        if let error = response["error"] as? [String: Any] {
            throw ProtocolError(description: "\(method): \(error["message"] ?? error)")
        }
        return response["result"] as? [String: Any] ?? [:]
    }

    private func write(_ message: [String: Any]) throws {
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(toBrowser, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw ProtocolError(description: "write to the browser: \(String(cString: strerror(errno)))") }
                offset += n
            }
        }
    }

    /// Reads NUL-separated messages until the pipe closes; keeps the responses (events are
    /// not needed by these tests).
    private func readMessages() {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending.append(contentsOf: buffer[..<n])
            while let end = pending.firstIndex(of: 0) {
                let message = pending[pending.startIndex..<end]
                pending = Data(pending[(end + 1)...])
                if let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any], let id = object["id"] as? Int {
                    state.lock()
                    responses[id] = object
                    state.broadcast()
                    state.unlock()
                }
            }
        }
        state.lock()
        closed = true
        state.broadcast()
        state.unlock()
    }

    // MARK: - Pages

    /// A new tab of `width`×`height` CSS pixels at 1 device pixel each.
    func newPage(width: Int = 1280, height: Int = 900) throws -> Page {
        let target = try send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw ProtocolError(description: "no targetId") }
        let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw ProtocolError(description: "no sessionId") }
        let page = Page(browser: self, session: session)
        try page.send("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
        return page
    }

    struct Page {
        let browser: HeadlessBrowser
        let session: String

        @discardableResult
        func send(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
            try browser.send(method, params, session: session)
        }

        /// Loads `url` and waits until the document has loaded.
        func open(_ url: String) throws {
            try send("Page.navigate", ["url": url])
            try waitFor("document.readyState === 'complete' && location.href !== 'about:blank'", timeout: 20)
        }

        /// The value of a JavaScript expression (awaited when it is a promise).
        func evaluate(_ expression: String) throws -> Any? {
            let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
            if let exception = result["exceptionDetails"] as? [String: Any] {
                throw ProtocolError(description: "\(expression): \(exception["text"] ?? ""): \((exception["exception"] as? [String: Any])?["description"] ?? "")")
            }
            return (result["result"] as? [String: Any])?["value"]
        }

        func number(_ expression: String) throws -> Double {
            guard let value = try evaluate(expression) as? NSNumber else { throw ProtocolError(description: "\(expression) is not a number") }
            return value.doubleValue
        }

        func string(_ expression: String) throws -> String {
            guard let value = try evaluate(expression) as? String else { throw ProtocolError(description: "\(expression) is not a string") }
            return value
        }

        /// Waits until `condition` (JavaScript) is true; throws after `timeout` seconds.
        func waitFor(_ condition: String, timeout: Double) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if (try? evaluate("!!(\(condition))")) as? Bool == true { return }
                usleep(25_000)
            }
            throw ProtocolError(description: "not true within \(timeout) s: \(condition)")
        }

        /// Moves the mouse to (x, y) in CSS pixels of the viewport, as a hover.
        func moveMouse(x: Double, y: Double) throws {
            try send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": x, "y": y])
        }

        func click(x: Double, y: Double) throws {
            for type in ["mousePressed", "mouseReleased"] {
                try send("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": "left", "clickCount": 1])
            }
        }

        func press(key: String, code: String, keyCode: Int) throws {
            for type in ["rawKeyDown", "keyUp"] {
                try send("Input.dispatchKeyEvent", ["type": type, "key": key, "code": code, "windowsVirtualKeyCode": keyCode])
            }
        }

        /// The viewport (or the whole page) as PNG.
        func screenshot(fullPage: Bool = false) throws -> Data {
            let result = try send("Page.captureScreenshot", ["format": "png", "captureBeyondViewport": fullPage])
            guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else { throw ProtocolError(description: "no screenshot") }
            return data
        }

        /// `prefers-color-scheme` as the page sees it.
        func emulate(colorScheme: String) throws {
            try send("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": colorScheme]]])
        }
    }
}
