public import Foundation

/// Hosts for what must cross a network, made by `scripts/netns`: network namespaces on one bridge, each with its own
/// address, which the machine (and Prometheus on it) reaches. Where the machine does not allow namespaces, ``up(count:)``
/// gives no hosts and the reason: the caller then runs its programs on loopback ports, and says so.
public struct NetworkHosts: Sendable {
    public let name: String
    /// Each host's address on the bridge.
    public let addresses: [String]

    private static var script: String { JSONSchemaCheck.repositoryRoot.appendingPathComponent("scripts/netns").path }

    /// `count` new hosts; or none, and why, where namespaces cannot be made.
    public static func up(count: Int) async throws -> (hosts: NetworkHosts?, reason: String) {
        let name = "pt" + String(UInt32.random(in: 0...0xFFFF_FFFF), radix: 36).prefix(6)
        let subnet = "10.254.\(Int.random(in: 1...254))"
        let run = try await CommandRunner.run(executable: URL(fileURLWithPath: "/bin/bash"),
                                              [script, "up", name, String(count), subnet], timeout: .seconds(60))
        guard run.status == 0 else {
            return (nil, run.error.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let addresses = run.output.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        return (NetworkHosts(name: name, addresses: addresses), "")
    }

    /// The program and arguments that run `executable` on host `index`.
    public func command(on index: Int, _ executable: URL, _ arguments: [String]) -> (URL, [String]) {
        (URL(fileURLWithPath: "/usr/bin/env"), ["ip", "netns", "exec", "\(name)-\(index)", executable.path] + arguments)
    }

    /// Removes the hosts (their programs must have ended).
    public func down() async {
        _ = try? await CommandRunner.run(executable: URL(fileURLWithPath: "/bin/bash"),
                                         [Self.script, "down", name, String(addresses.count)], timeout: .seconds(60))
    }
}
