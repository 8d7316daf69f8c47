import Foundation
import Testing
import XCTest

/// Where an assertion was written, captured by default arguments at the call site.
public struct CallSite: Sendable {
    public let fileID: String
    public let filePath: StaticString
    public let line: UInt
    public let column: UInt

    public init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID; self.filePath = filePath; self.line = line; self.column = column
    }

    var path: String { "\(filePath)" }
}

/// Reports a failure to whichever framework runs the current test: Swift Testing when one of
/// its tests is running (an issue at the call site), else XCTest (`XCTFail`).
func reportFailure(_ message: String, at site: CallSite) {
    if Test.current != nil {
        Issue.record(Comment(rawValue: message),
                     sourceLocation: SourceLocation(fileID: site.fileID, filePath: site.path,
                                                    line: Int(site.line), column: Int(site.column)))
    } else {
        XCTFail(message, file: site.filePath, line: site.line)
    }
}
