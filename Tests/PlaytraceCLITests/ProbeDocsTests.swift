import Foundation
import PlaytraceTestSupport
import Testing

/// docs/PROBE.md's Kubernetes Job and Prometheus scrape configuration: valid YAML with the fields each needs, agreeing
/// with each other and with the command's real options.
@Suite("docs/PROBE.md: the Job manifest and the scrape configuration hold together")
struct ProbeDocsTests {
    /// The page's YAML blocks, read by PyYAML (Debian's python3-yaml) into JSON.
    static func yamlBlocks() async throws -> [[String: Any]] {
        let page = try String(contentsOf: JSONSchemaCheck.repositoryRoot.appendingPathComponent("docs/PROBE.md"), encoding: .utf8)
        var blocks: [[String: Any]] = []
        for block in page.components(separatedBy: "```yaml\n").dropFirst() {
            let text = try #require(block.components(separatedBy: "```").first)
            let file = CLITests.temporaryPath("probe-doc") + ".yaml"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let run = try await CommandRunner.run(executable: URL(fileURLWithPath: "/usr/bin/python3"), [
                "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", file])
            #expect(run.status == 0, "valid YAML: \(run.error)\n\(text)")
            blocks.append(try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]))
        }
        return blocks
    }

    @Test("The Indexed Job gives each pod its shard, the command accepts its arguments, Prometheus' pod discovery finds it")
    func manifestAndScrapeConfiguration() async throws {
        let blocks = try await Self.yamlBlocks()
        let job = try #require(blocks.first { $0["kind"] as? String == "Job" }, "a Job manifest")
        #expect(job["apiVersion"] as? String == "batch/v1")
        #expect(((job["metadata"] as? [String: Any])?["name"] as? String)?.isEmpty == false)
        let spec = try #require(job["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        #expect(spec["parallelism"] as? Int == completions)
        let template = try #require(spec["template"] as? [String: Any])
        let podLabels = try #require((template["metadata"] as? [String: Any])?["labels"] as? [String: String])
        let podSpec = try #require(template["spec"] as? [String: Any])
        #expect(["Never", "OnFailure"].contains(podSpec["restartPolicy"] as? String ?? ""), "a Job's pods may not restart always")
        let containers = try #require(podSpec["containers"] as? [[String: Any]])
        #expect(containers.count == 1)
        let container = try #require(containers.first)
        #expect((container["image"] as? String)?.isEmpty == false && (container["name"] as? String)?.isEmpty == false)
        let arguments = try #require(container["args"] as? [String])
        #expect(arguments.first == "probe")
        func value(_ option: String) -> String? {
            arguments.first { $0.hasPrefix("--\(option)=") }.map { String($0.dropFirst(option.count + 3)) }
        }
        #expect(value("shard") == "$(JOB_COMPLETION_INDEX)/\(completions)", "the completion index is the shard, of completions")
        let metricsPort = try #require(value("metrics-port").flatMap(Int.init))
        let ports = try #require(container["ports"] as? [[String: Any]])
        #expect(ports.contains { $0["name"] as? String == "metrics" && $0["containerPort"] as? Int == metricsPort })

        // The command takes these very arguments: with the index filled in, an address that refuses at once and a
        // summary path that exists here, it gets past its validation to the stream's check (exit 2, not a usage error).
        let summary = CLITests.temporaryPath("probe-doc-summary") + ".json"
        let local = arguments.dropFirst().map { argument -> String in
            if argument.hasPrefix("http") { return "http://127.0.0.1:1/master.m3u8" }
            if argument.hasPrefix("--summary-json=") { return "--summary-json=" + summary }
            if argument.hasPrefix("--metrics-port=") { return "--metrics-port=0" }
            return argument.replacingOccurrences(of: "$(JOB_COMPLETION_INDEX)", with: String(completions - 1))
        }
        let run = try await CLITests.run(["probe"] + local)
        #expect(run.status == 2 && run.error.contains("does not answer"), "\(run.status): \(run.error)")

        // Prometheus: pod discovery, keeping the Job's pods by their label and the port by its name.
        let scrape = try #require(blocks.first { $0["scrape_configs"] != nil }, "a scrape configuration")
        let job0 = try #require((scrape["scrape_configs"] as? [[String: Any]])?.first)
        let discovery = try #require((job0["kubernetes_sd_configs"] as? [[String: Any]])?.first)
        #expect(discovery["role"] as? String == "pod")
        let namespaces = (discovery["namespaces"] as? [String: Any])?["names"] as? [String]
        #expect(namespaces == [(job["metadata"] as? [String: Any])?["namespace"] as? String ?? "default"])
        let relabels = try #require(job0["relabel_configs"] as? [[String: Any]])
        let kept = Dictionary(relabels.filter { $0["action"] as? String == "keep" }.compactMap { rule -> (String, String)? in
            guard let source = (rule["source_labels"] as? [String])?.first, let regex = rule["regex"] as? String else { return nil }
            return (source, regex)
        }, uniquingKeysWith: { first, _ in first })
        let labelRule = try #require(kept.first { $0.key.hasPrefix("__meta_kubernetes_pod_label_") })
        #expect(podLabels[String(labelRule.key.dropFirst("__meta_kubernetes_pod_label_".count))] == labelRule.value)
        #expect(kept["__meta_kubernetes_pod_container_port_name"] == "metrics")

        // The rest of it is Prometheus' own syntax: promtool checks it, with the discovery (which Debian's build
        // leaves out) replaced by a static target.
        var checkable = job0
        checkable["kubernetes_sd_configs"] = nil
        checkable["static_configs"] = [["targets": ["127.0.0.1:\(metricsPort)"]]]
        let file = CLITests.temporaryPath("probe-doc-prometheus") + ".json"
        try JSONSerialization.data(withJSONObject: ["scrape_configs": [checkable]]).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let check = try await CommandRunner.run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["promtool", "check", "config", file])
        #expect(check.status == 0, "\(check.output)\n\(check.error)")
    }
}
