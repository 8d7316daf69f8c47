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
            try file.data.write(to: URL(fileURLWithPath: file.path), options: .atomic)
            if !existed { created.append(file.path) }
        } catch {
            // Rare after the checks (a full disk): remove the files this run created.
            for path in created { try? FileManager.default.removeItem(atPath: path) }
            return (.ioError, "cannot write '\(file.path)': \(reason(error))")
        }
    }
    return nil
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
