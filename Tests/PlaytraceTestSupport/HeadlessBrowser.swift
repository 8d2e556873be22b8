public import Foundation

/// Debian's Chromium, headless: renders a local HTML file as a person's browser would, for the report's tests.
public enum HeadlessBrowser {
    /// What rendering a page gave.
    public struct Page: Sendable {
        /// The document once rendered (the DOM, serialized).
        public var dom: String
        /// The page's console messages and refused loads: a report has none.
        public var consoleMessages: [String]
    }

    public static let executable = URL(fileURLWithPath: "/usr/bin/chromium")

    private static let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--no-first-run", "--disable-extensions", "--enable-logging=stderr", "--v=0"]

    /// Renders `file` and returns its DOM and console messages.
    public static func render(_ file: String) async throws -> Page {
        let run = try await CommandRunner.run(executable: executable, flags + ["--dump-dom", URL(fileURLWithPath: file).absoluteString],
                                              timeout: .seconds(120))
        guard run.status == 0 else { throw BrowserError(status: run.status, error: run.error) }
        let messages = run.error.split(separator: "\n").filter {
            $0.contains("CONSOLE") || $0.contains("Refused to") || $0.contains("Uncaught")
        }.map(String.init)
        return Page(dom: run.output, consoleMessages: messages)
    }

    /// Renders `file` into a PNG at `screenshot`, `width` pixels wide and `height` high.
    public static func screenshot(_ file: String, to screenshot: String, width: Int = 1280, height: Int = 2400) async throws {
        let run = try await CommandRunner.run(executable: executable,
                                              flags + ["--window-size=\(width),\(height)", "--screenshot=\(screenshot)",
                                                       URL(fileURLWithPath: file).absoluteString],
                                              timeout: .seconds(120))
        guard run.status == 0, FileManager.default.fileExists(atPath: screenshot) else {
            throw BrowserError(status: run.status, error: run.error)
        }
    }

    /// Where a test keeps what a person would look at after the run (screenshots): `.build/test-artifacts`.
    public static var artifactsDirectory: URL {
        let directory = JSONSchemaCheck.repositoryRoot.appendingPathComponent(".build/test-artifacts")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    public struct BrowserError: Error, CustomStringConvertible {
        public var status: Int32
        public var error: String
        public var description: String { "chromium exited \(status): \(error.suffix(2_000))" }
    }
}
