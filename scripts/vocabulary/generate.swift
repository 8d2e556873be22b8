// Generates the Swift code of Playtrace's standard vocabulary from scripts/vocabulary/Vocabulary.txt: the standard
// attributes and actions, the playback snapshot's fields, and the InfluxDB encoder's unrolled writes of them.
// Run by scripts/generate-vocabulary (from the package's root): without arguments it writes the files; with --check
// it writes nothing and fails, naming the files, when the checked-in ones differ from what it would write.

import Foundation

struct VocabularyError: Error, CustomStringConvertible {
    let description: String
}

enum SnapshotKind: String {
    case none = "-", int, bool, identifier
}

struct AttributeLine {
    let id: Int
    let name: String
    let origin: String
    let snapshot: SnapshotKind
    let documentation: String
    let section: String?
}

struct ActionLine {
    let index: Int
    let name: String
    let flags: Set<String>
    let documentation: String
    let section: String?

    /// The name of its constant (`start`, `qualityChangeUp`).
    var constant: String { name.prefix(1).lowercased() + name.dropFirst() }
}

struct Vocabulary {
    var attributes: [AttributeLine] = []
    var actions: [ActionLine] = []
    var dimensions: [String] = []

    init(text: String) throws {
        var section: String?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ message: String) -> VocabularyError {
                VocabularyError(description: "Vocabulary.txt:\(number + 1): \(message)")
            }
            let halves = line.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let words = halves[0].split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            let documentation = halves.count > 1 ? halves[1] : ""
            switch words.first {
            case "section":
                section = halves[0].dropFirst("section".count).trimmingCharacters(in: .whitespaces)
            case "attribute":
                guard words.count == 5, let id = Int(words[1]) else { throw fail("expected attribute <id> <name> <origin> <snapshot> | <doc>") }
                guard let kind = SnapshotKind(rawValue: words[4]) else { throw fail("unknown snapshot kind \(words[4])") }
                guard ["openavt", "playtrace"].contains(words[3]) else { throw fail("unknown origin \(words[3])") }
                guard !documentation.isEmpty else { throw fail("\(words[2]) has no documentation") }
                attributes.append(AttributeLine(id: id, name: words[2], origin: words[3], snapshot: kind,
                                                documentation: documentation, section: section))
                section = nil
            case "action":
                guard words.count == 4, let index = Int(words[1]) else { throw fail("expected action <index> <Name> <flags> | <doc>") }
                let flags = words[3] == "-" ? [] : Set(words[3].split(separator: ",").map(String.init))
                guard flags.isSubset(of: ["flushing", "ad"]) else { throw fail("unknown flag in \(words[3])") }
                guard !documentation.isEmpty else { throw fail("\(words[2]) has no documentation") }
                actions.append(ActionLine(index: index, name: words[2], flags: flags, documentation: documentation,
                                          section: section))
                section = nil
            case "dimensions":
                dimensions = Array(words.dropFirst())
            default:
                throw fail("unknown line")
            }
        }
        try validate()
    }

    private func validate() throws {
        guard attributes.map(\.id) == Array(0..<attributes.count), attributes.count <= 64 else {
            throw VocabularyError(description: "attribute identifiers must run 0, 1, 2… without gaps, below 64")
        }
        guard actions.map(\.index) == Array(0..<actions.count), actions.count <= 64 else {
            throw VocabularyError(description: "action indexes must run 0, 1, 2… without gaps, below 64")
        }
        let names = attributes.map(\.name) + actions.map { "timeSince" + $0.name }
        if let duplicate = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw VocabularyError(description: "\(duplicate) is named twice")
        }
        for name in dimensions where !attributes.contains(where: { $0.name == name }) {
            throw VocabularyError(description: "dimension \(name) is not an attribute")
        }
        guard attributes.filter({ $0.snapshot == .identifier }).map(\.name) == ["playbackId"] else {
            throw VocabularyError(description: "the snapshot's one identifier is playbackId")
        }
        guard attributes.first(where: { $0.snapshot == .int }) != nil else {
            throw VocabularyError(description: "the snapshot carries at least one integer")
        }
    }

    var snapshotFields: [AttributeLine] { attributes.filter { $0.snapshot != .none } }
}

/// Writes Swift source text.
struct SourceText {
    private(set) var text = """
        // Generated by scripts/generate-vocabulary from scripts/vocabulary/Vocabulary.txt: edit that table, not this file.


        """

    mutating func line(_ line: String = "") {
        text += line.isEmpty ? "\n" : line + "\n"
    }

    /// A documentation comment, wrapped at 120 columns.
    mutating func documentation(_ documentation: String, indent: String) {
        var current = indent + "///"
        for word in documentation.split(separator: " ") {
            if current.count + 1 + word.count > 120, current != indent + "///" {
                line(current)
                current = indent + "///"
            }
            current += " " + word
        }
        line(current)
    }

    /// A documented array constant, after a blank line: `declaration = [items…]`.
    mutating func array(_ documentation: String, _ declaration: String, _ items: [String]) {
        line()
        line("    /// \(documentation)")
        line("    \(declaration) = [")
        list(items, indent: "        ")
        line("    ]")
    }

    /// A documented member, under its section's comment when it opens one.
    mutating func member(section: String?, documentation: String, declaration: String) {
        if let section {
            line()
            line("    // \(section).")
        }
        self.documentation(documentation, indent: "    ")
        line("    " + declaration)
    }

    /// A list of expressions wrapped at 120 columns.
    mutating func list(_ items: [String], indent: String) {
        var current = indent
        for item in items {
            let piece = item + ","
            if current.count + piece.count + 1 > 120, current != indent {
                line(current)
                current = indent
            }
            current += (current == indent ? "" : " ") + piece
        }
        if current != indent { line(current) }
    }
}

func attributeFile(_ vocabulary: Vocabulary) -> String {
    var source = SourceText()
    let last = vocabulary.attributes.count - 1
    source.line("extension AttributeRegistry {")
    source.line("    /// The names of the standard attributes 0–\(last), by identifier (``Attribute/ID``).")
    source.line("    static let attributeNames: [String] = [")
    source.list(vocabulary.attributes.map { "\"\($0.name)\"" }, indent: "        ")
    source.line("    ]")
    source.line("}")
    source.line()
    source.line("public extension Attribute {")
    source.line("    /// The identifiers of the standard attributes as constants, for switches and masks on hot paths")
    source.line("    /// (`Attribute.ID.playbackId == Attribute.playbackId.id`).")
    source.line("    enum ID {")
    for attribute in vocabulary.attributes {
        source.line("        public static let \(attribute.name): UInt32 = \(attribute.id)")
    }
    source.line("    }")
    for attribute in vocabulary.attributes {
        source.member(section: attribute.section, documentation: attribute.documentation,
                      declaration: "@inlinable static var \(attribute.name): Attribute { Attribute(standard: ID.\(attribute.name)) }")
    }
    let openAVT = vocabulary.attributes.filter { $0.origin == "openavt" }
    let own = vocabulary.attributes.filter { $0.origin == "playtrace" }
    source.array("OpenAVT's \(openAVT.count) standard attributes.", "static let openAVT: [Attribute]",
                 openAVT.map { "." + $0.name })
    source.array("Playtrace's own standard attributes (beyond OpenAVT's).", "static let playtrace: [Attribute]",
                 own.map { "." + $0.name })
    source.array("Playtrace's dimension attributes: those metrics carry, in their order.",
                 "static let dimensions: [Attribute]", vocabulary.dimensions.map { "." + $0 })
    source.line("}")
    return source.text
}

func actionFile(_ vocabulary: Vocabulary) -> String {
    var source = SourceText()
    func mask(_ flag: String) -> String {
        let bits = vocabulary.actions.filter { $0.flags.contains(flag) }.map { "1 << \($0.index)" }
        return bits.isEmpty ? "0" : bits.joined(separator: " | ")
    }
    source.line("public extension Action {")
    source.line("    /// The standard actions' names and their time-since attributes' names, in OpenAVT's order (literals:")
    source.line("    /// copying one counts no reference).")
    source.line("    internal static let standardNames: [(action: String, timeSince: String)] = [")
    for action in vocabulary.actions {
        source.line("        (\"\(action.name)\", \"timeSince\(action.name)\"),")
    }
    source.line("    ]")
    for action in vocabulary.actions {
        source.member(section: action.section, documentation: action.documentation,
                      declaration: "@inlinable static var \(action.constant): Action { Action(standard: \(action.index)) }")
    }
    source.array("The \(vocabulary.actions.count) standard actions, in OpenAVT's order.", "static let standard: [Action]",
                 vocabulary.actions.map { "." + $0.constant })
    source.line()
    source.line("    /// The actions after which backends hand their batches over at once, as bits by standard index.")
    source.line("    internal static let flushingMask: UInt64 = \(mask("flushing"))")
    source.line()
    source.line("    /// The ad actions, as bits by standard index.")
    source.line("    internal static let adMask: UInt64 = \(mask("ad"))")
    source.line("}")
    source.line()
    source.line("/// The \(vocabulary.actions.count) standard actions as an enumeration, in OpenAVT's order (``Action/standardAction``).")
    source.line("public enum StandardAction: Int, Sendable, CaseIterable {")
    for action in vocabulary.actions {
        source.documentation(action.documentation, indent: "    ")
        source.line("    case \(action.constant)")
    }
    source.line("}")
    return source.text
}

func snapshotFile(_ vocabulary: Vocabulary) -> String {
    var source = SourceText()
    let fields = vocabulary.snapshotFields
    let mask = fields.reduce(UInt64(0)) { $0 | 1 << UInt64($1.id) }
    source.line("""
        /// The state of a playback as the hub saw it when it let an event through: the playback's id, counters,
        /// accumulated times, block flags and the time since each earlier action of the playback.
        ///
        /// An event reads these as attributes (`event[.countStarts]`, `event[.inPauseBlock]`,
        /// `event[Action.start.timeAttribute]`), exactly as if the hub had set them one by one; carrying them as one value
        /// instead is what keeps an event cheap to make and to encode. Attributes the event sets itself win over the
        /// snapshot's.
        ///
        /// Times are whole milliseconds.
        public struct PlaybackSnapshot: Sendable, Hashable {
        """)
    for field in fields {
        source.documentation(field.documentation, indent: "    ")
        switch field.snapshot {
        case .identifier: source.line("    public var playbackIdentifier: PlaybackIdentifier?")
        case .int: source.line("    public var \(field.name) = 0")
        case .bool: source.line("    public var \(field.name) = false")
        case .none: break
        }
    }
    source.line("""

            /// Which of the attributes above the event carries, by ``Attribute/standardSlot(of:)`` (an ad event carries
            /// only the ad counters and flags). ``carryingAll`` by default.
            package var carried: UInt64 = PlaybackSnapshot.carryingAll

            /// The time-since values: when each earlier action of the playback last happened.
            @usableFromInline var times = TimeSince()

            /// A snapshot of a playback that carries everything (the hub sets the values).
            public init() {}

            /// The slots of every attribute a snapshot can carry (besides the time-since ones).
            /// (A literal, so that making a snapshot reads no lazily initialized global.)
            package static let carryingAll: UInt64 = 0x\(String(mask, radix: 16, uppercase: true))

            /// The attributes a snapshot carries, in the order events list them.
            public static let stateAttributes: [Attribute] = [
        """)
    source.list(fields.map { "." + $0.name }, indent: "        ")
    source.line("""
            ]

            /// A state attribute's value by identifier (the caller checked that it is carried).
            func stateValue(_ id: UInt32) -> AttributeValue? {
                switch id {
        """)
    for field in fields {
        let value = switch field.snapshot {
        case .identifier: "playbackIdentifier.map { .string($0.description) }"
        case .int: ".int(\(field.name))"
        case .bool: ".bool(\(field.name))"
        case .none: ""
        }
        source.line("        case Attribute.ID.\(field.name): \(value)")
    }
    source.line("""
                default: nil
                }
            }
        }
        """)
    return source.text
}

let outputs: [(path: String, make: (Vocabulary) -> String)] = [
    ("Sources/PlaytraceTelemetry/Model/Attribute+Standard.swift", attributeFile),
    ("Sources/PlaytraceTelemetry/Model/Action+Standard.swift", actionFile),
    ("Sources/PlaytraceTelemetry/Model/PlaybackSnapshot+Fields.swift", snapshotFile),
]

do {
    let check = CommandLine.arguments.dropFirst().contains("--check")
    let table = try String(contentsOfFile: "scripts/vocabulary/Vocabulary.txt", encoding: .utf8)
    let vocabulary = try Vocabulary(text: table)
    var stale: [String] = []
    for output in outputs {
        let text = output.make(vocabulary)
        let current = try? String(contentsOfFile: output.path, encoding: .utf8)
        guard current != text else { continue }
        if check {
            stale.append(output.path)
        } else {
            try text.write(toFile: output.path, atomically: true, encoding: .utf8)
            print("wrote \(output.path)")
        }
    }
    if !stale.isEmpty {
        FileHandle.standardError.write(Data("error: generated from scripts/vocabulary/Vocabulary.txt but changed since (run scripts/generate-vocabulary): \(stale.joined(separator: ", "))\n".utf8))
        exit(1)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
