public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command run in a real terminal: a detached `tmux` session of its own (its own server socket), read with
/// `capture-pane` as a person would see it, and sent keys as a person would type them.
public final class TmuxSession: Sendable {
    private let socket = "playtrace-test-\(UUID().uuidString)"
    private let name = "test"
    public static let executable = URL(fileURLWithPath: "/usr/bin/tmux")

    /// Starts `command` (a shell command line) in a terminal of `columns` × `rows`; the pane stays open after the
    /// command ends, which prints `EXITED <status>` last.
    public init(_ command: String, columns: Int = 140, rows: Int = 50) async throws {
        // The server tmux starts lives on and keeps the descriptors it inherits, so it gets none but /dev/null (a
        // pipe the runner reads to its end would never end); spawned and waited for directly, as it exits at once.
        let arguments = [Self.executable.path, "-L", socket, "new-session", "-d", "-s", name, "-x", "\(columns)",
                         "-y", "\(rows)", command + "; echo EXITED $?; sleep 600"]
        let status = try await Task.detached { try Self.spawnAndWait(arguments) }.value
        guard status == 0 else { throw TmuxError(text: "new-session exited \(status)") }
    }

    private static func spawnAndWait(_ arguments: [String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // Nor the other tests' pipes: every other descriptor is closed in the child, including one a concurrent test
        // opens while this spawns (a pipe held by the server would keep that test's read from ever ending).
        if let closeFrom = Self.closeFrom {
            _ = closeFrom(&actions, 3)
        } else {
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd")) ?? []
            for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The calling thread's signal mask and ignored signals are inherited through exec: a pool thread blocks
        // SIGHUP, SIGINT and SIGTERM, and a pane started with them blocked outlives kill-server (and Ctrl-C).
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw TmuxError(text: "cannot start tmux: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not
    /// import: found at run time, `nil` where the C library has none. Invariant (what makes the cast sound): the symbol is
    /// the function of that documented name, whose C signature is the one it is cast to.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// What the terminal shows now; with `history`, the lines scrolled off above it too.
    public func screen(history: Bool = false) async throws -> String {
        let run = try await tmux(["capture-pane", "-p", "-t", name] + (history ? ["-S", "-2000"] : []))
        guard run.status == 0 else { throw TmuxError(text: run.error) }
        return run.output
    }

    /// Types keys (tmux's names: `C-c` for Ctrl-C).
    public func send(_ keys: String) async throws {
        _ = try await tmux(["send-keys", "-t", name, keys])
    }

    /// Reads the screen until `condition` holds of it (every 200 ms), at most `timeout`; returns each screen read.
    public func watch(timeout: Duration, until condition: (String) -> Bool) async throws -> [String] {
        var screens: [String] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let screen = try await screen()
            screens.append(screen)
            if condition(screen) { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        return screens
    }

    /// Ends the session and its server.
    public func close() async {
        _ = try? await tmux(["kill-server"])
    }

    private func tmux(_ arguments: [String]) async throws -> CommandRunner.Run {
        try await CommandRunner.run(executable: Self.executable, ["-L", socket] + arguments, timeout: .seconds(30))
    }

    public struct TmuxError: Error, CustomStringConvertible {
        public var text: String
        public var description: String { "tmux: \(text)" }
    }
}
