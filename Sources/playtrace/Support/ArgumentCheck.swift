import ArgumentParser

/// Names an unknown subcommand or option itself, before ArgumentParser runs.
///
/// ArgumentParser validates a command (`validate()`) before it reports what it could not parse, so `play --add x
/// URL` was refused for its URL (`x`), and a mistyped subcommand was taken for an argument of the default one. This
/// check reads the command's options from its help and says `unknown option '--add'; did you mean '--ads'?`.
enum ArgumentCheck {
    /// The error for `arguments` (the program's, without its name), or `nil` when every subcommand and option is
    /// known.
    static func problem(in arguments: [String]) -> String? {
        let subcommands: [(name: String, type: any ParsableCommand.Type)] = Playtrace.configuration.subcommands.map { type in
            (type.configuration.commandName ?? "", type)
        }
        var command: any ParsableCommand.Type = Demo.self
        var rest = arguments[...]
        if let first = rest.first, !first.hasPrefix("-") {
            guard let named = subcommands.first(where: { $0.name == first })?.type else {
                let names = subcommands.map { $0.name }
                return "unknown subcommand '\(first)'" + suggestion(for: first, among: names) + " (subcommands: "
                    + names.joined(separator: ", ") + ")"
            }
            command = named
            rest = rest.dropFirst()
        }
        let known = options(of: command)
        for argument in rest {
            if argument == "--" { break }
            guard argument.hasPrefix("-"), argument.count > 1, !(argument.dropFirst().first?.isNumber ?? false) else { continue }
            let name = String(argument.prefix { $0 != "=" })
            if !known.contains(name) {
                return "unknown option '\(name)'" + suggestion(for: name, among: known.filter { $0.hasPrefix("--") })
            }
        }
        return nil
    }

    /// The option names a command's help lists (`-v`, `--verbose`, `--ads`…), with `--help`, `-h` and `--version`.
    static func options(of command: any ParsableCommand.Type) -> Set<String> {
        var names: Set<String> = ["--help", "-h", "--version"]
        let help = Playtrace.helpMessage(for: command, columns: 200)
        for line in help.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-"), line.hasPrefix("  ") else { continue }
            // "-v, --verbose", "--ads <ads>", "--no-init-session": the names before the first space that is not
            // after a comma.
            for word in trimmed.split(separator: " ").prefix(2) {
                let name = word.hasSuffix(",") ? word.dropLast() : word
                if name.hasPrefix("-") { names.insert(String(name)) }
            }
        }
        return names
    }

    /// `; did you mean 'x'?` for the closest name within a third of its length in edits, or nothing.
    private static func suggestion(for word: String, among names: some Collection<String>) -> String {
        let scored = names.map { ($0, distance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (name, edits) = scored, edits <= max(2, word.count / 3) else { return "" }
        return "; did you mean '\(name)'?"
    }

    /// The Levenshtein distance of two short words.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
