public import Foundation

/// Validates a JSON document against one of the repository's schemas (`schemas/NAME.schema.json`) with
/// `scripts/validate-json` (Debian's python3-jsonschema, which `scripts/test` installs).
public enum JSONSchemaCheck {
    /// The repository's root, from this file's place in it.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The errors found (one line each: the field's path and what is wrong); empty when the document conforms.
    /// - Parameters:
    ///   - file: the JSON document.
    ///   - schema: the schema's name: `session-summary` for `schemas/session-summary.schema.json`.
    public static func errors(in file: String, schema: String) async throws -> [String] {
        let root = repositoryRoot
        let run = try await CommandRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/python3"),
            [root.appendingPathComponent("scripts/validate-json").path,
             root.appendingPathComponent("schemas/\(schema).schema.json").path, file],
            timeout: .seconds(60))
        guard run.status == 0 else {
            let lines = run.output.split(separator: "\n").map(String.init)
            return lines.isEmpty ? ["validate-json exited \(run.status): \(run.error)"] : lines
        }
        return []
    }

    /// The errors found in a document given as text (a command's output), as ``errors(in:schema:)`` finds them.
    public static func errors(inText text: String, schema: String) async throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("schema-check-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await errors(in: file.path, schema: schema)
    }
}
