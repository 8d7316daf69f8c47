import Foundation

/// Why `path` cannot be written, or nil: its folder must exist and be writable, and the path
/// must not be a folder.
func unwritable(_ path: String) -> String? {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        return "the folder '\(folder)' does not exist"
    }
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        return "it is a folder"
    }
    guard FileManager.default.isWritableFile(atPath: folder) else { return "the folder '\(folder)' is not writable" }
    return nil
}


/// Writes every file atomically after checking every destination first; on a failure, removes
/// the files this call created and returns the exit code (nil: all written).
func writeAll(_ files: [(path: String, data: Data)]) -> ExitCode? {
    guard let (code, message) = writeFiles(files) else { return nil }
    printError(message)
    return code
}

/// `writeAll` without printing: the exit code and the message, or nil when all were written.
func writeFiles(_ files: [(path: String, data: Data)]) -> (ExitCode, String)? {
    for file in files {
        if let problem = unwritable(file.path) {
            return (.cannotCreate, "cannot write '\(file.path)': \(problem)")
        }
    }
    var created: [String] = []
    for file in files {
        let existed = FileManager.default.fileExists(atPath: file.path)
        do {
            try writeAtomically(file.data, to: file.path)
            if !existed { created.append(file.path) }
        } catch {
            // Rare after the checks (a full disk): remove the files this run created.
            for path in created { try? FileManager.default.removeItem(atPath: path) }
            return (.ioError, "cannot write '\(file.path)': \(reason(error))")
        }
    }
    return nil
}

/// A failed system call's `errno`.
struct SystemError: Error {
    let code: Int32
}

/// Writes `data` to a new file beside `path`, then renames it over `path`: a reader sees the
/// old file or the whole new one, never a part. The file gets the mode of the one it replaces,
/// else 0666 less the umask. Plain system calls: Foundation's atomic write looked up the user
/// and group databases and file attributes, a tenth of a small render's process time.
func writeAtomically(_ data: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var fd: Int32 = -1
    var temporary = ""
    for _ in 0..<100 {
        temporary = folder + "/." + url.lastPathComponent + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        if fd >= 0 || errno != EEXIST { break }
    }
    guard fd >= 0 else { throw SystemError(code: errno) }
    var failure: Int32 = 0
    var existing = stat()
    if stat(path, &existing) == 0, fchmod(fd, existing.st_mode & 0o7777) != 0 { failure = errno }
    data.withUnsafeBytes { raw in
        var offset = 0
        while failure == 0, offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno != EINTR { failure = errno }
            } else {
                offset += n
            }
        }
    }
    if close(fd) != 0, failure == 0 { failure = errno }
    if failure == 0, rename(temporary, path) != 0 { failure = errno }
    if failure != 0 {
        unlink(temporary)
        throw SystemError(code: failure)
    }
}

/// Writes `data` to standard output; when that fails (a full disk, a closed pipe), says why and
/// returns 74 instead of trapping, as `FileHandle.write(_:)` would.
func writeStandardOutput(_ data: Data) -> ExitCode? {
    guard let message = standardOutputFailure(data) else { return nil }
    printError(message)
    return .ioError
}

/// Writes `data` to standard output; why it failed, or nil.
func standardOutputFailure(_ data: Data) -> String? {
    do {
        try FileHandle.standardOutput.write(contentsOf: data)
        return nil
    } catch {
        return "cannot write to standard output: \(reason(error))"
    }
}

/// The operating system's words for a failed write ("No space left on device"), where
/// Foundation wraps them.
func reason(_ error: Error) -> String {
    if let error = error as? SystemError { return String(cString: strerror(error.code)) }
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
    if ns.domain == NSCocoaErrorDomain {
        // Foundation's own codes for the common POSIX causes, in the system's words.
        let posix: [Int: Int32] = [
            CocoaError.fileWriteOutOfSpace.rawValue: ENOSPC, CocoaError.fileNoSuchFile.rawValue: ENOENT,
            CocoaError.fileReadNoSuchFile.rawValue: ENOENT, CocoaError.fileWriteNoPermission.rawValue: EACCES,
            CocoaError.fileReadNoPermission.rawValue: EACCES, CocoaError.fileWriteVolumeReadOnly.rawValue: EROFS,
        ]
        if let code = posix[ns.code] { return String(cString: strerror(code)) }
    }
    return ns.localizedDescription
}
