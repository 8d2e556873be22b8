/// A scripted viewer: what a viewer does, and when, as a list of actions — `at 10 pause 2; at 14 seek 30; at 31 mute`
/// (and `skip`, which skips the interstitial that plays where it is allowed).
///
/// Each action runs when the playhead is at or past its time (seconds of the item's media time), after the one
/// before it is done (a pause is done when playback resumes, a seek when it completes): actions run in order, each
/// at most once. An action inside an interstitial names it, and its time is on the interstitial's own timeline —
/// `in pod-2 at 3 pause 1` — since the primary's playhead stands still while one plays. ``ViewerScriptRunner``
/// performs them on a ``Player``.
///
/// ```swift
/// let script = try ViewerScript(parsing: "at 10 pause 2; at 12 seek 30; in pod-2 at 3 mute; at 40 stop")
/// script.steps.count   // 4
/// ```
public struct ViewerScript: Sendable, Hashable {
    /// What the viewer does.
    public enum Action: Sendable, Hashable {
        /// Pauses for this many seconds of session time, then plays.
        case pause(seconds: Double)
        /// Seeks to this position (seconds).
        case seek(to: Double)
        case mute
        case unmute
        /// Asks for this playback speed.
        case rate(Double)
        /// Skips the interstitial that plays (or that begins within a second of the step's time) as soon as it may
        /// be skipped; done when it ends.
        case skip
        /// Ends the session.
        case stop
    }

    /// One action and the playhead position it waits for.
    public struct Step: Sendable, Hashable {
        /// Seconds of media time: the primary's, or the interstitial's when ``interstitial`` names one.
        public var time: Double
        public var action: Action
        /// The interstitial (its date range's `ID`) on whose timeline ``time`` is; `nil` for the primary.
        public var interstitial: String?

        public init(time: Double, action: Action, interstitial: String? = nil) {
            self.time = time
            self.action = action
            self.interstitial = interstitial
        }
    }

    public var steps: [Step]

    public init(steps: [Step]) { self.steps = steps }

    /// The same actions, those on the primary's timeline `seconds` later, so that many simulated viewers with one
    /// script do not act in lockstep; an action inside an interstitial keeps its time on the interstitial's own
    /// timeline (which the shift has already moved).
    public func shifted(by seconds: Double) -> ViewerScript {
        ViewerScript(steps: steps.map { step in
            var step = step
            if step.interstitial == nil { step.time += seconds }
            return step
        })
    }

    /// The longest script text read (a script is typed by a person: a few hundred bytes).
    public static let maximumLength = 64 << 10

    /// Reads a script: actions separated by `;`, each `[in ID] at T VERB [ARGUMENT]` with VERB one of `pause D`,
    /// `seek S`, `mute`, `unmute`, `rate R`, `skip`, `stop` (times and durations in seconds; with `in ID`, T is on
    /// the timeline of the interstitial whose date range has that ID).
    /// - Throws: ``ViewerScriptError`` naming the action and what is wrong with it.
    public init(parsing text: String) throws(ViewerScriptError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw ViewerScriptError(action: 0, text: "", reason: "the script is longer than \(Self.maximumLength) bytes")
        }
        var steps: [Step] = []
        let actions = text.split(separator: ";", omittingEmptySubsequences: false)
        for (index, raw) in actions.enumerated() {
            let words = raw.split(whereSeparator: \.isWhitespace)
            if words.isEmpty {
                // A trailing `;` (or a doubled one) is harmless; an empty script is not a script.
                continue
            }
            steps.append(try Self.step(words, number: index + 1, text: raw.trimmingCharacters(in: .whitespaces)))
        }
        guard !steps.isEmpty else { throw ViewerScriptError(action: 0, text: "", reason: "the script has no action") }
        self.steps = steps
    }

    private static func step(_ words: [Substring], number: Int, text: String) throws(ViewerScriptError) -> Step {
        func fail(_ reason: String) -> ViewerScriptError { ViewerScriptError(action: number, text: text, reason: reason) }
        func seconds(_ word: Substring, _ what: String, allowsZero: Bool = true) throws(ViewerScriptError) -> Double {
            guard let value = Double(word), value.isFinite, value >= 0, value <= 1e9, allowsZero || value > 0 else {
                throw fail("'\(word)' is not \(what)")
            }
            return value
        }
        var words = words[...]
        var interstitial: String?
        if words.first?.lowercased() == "in" {
            guard words.count >= 2 else { throw fail("'in' needs an interstitial's ID: in ID at T …") }
            interstitial = String(words[words.startIndex + 1])
            words = words.dropFirst(2)
        }
        guard words.first?.lowercased() == "at" else {
            throw fail(interstitial == nil ? "an action begins with 'at T' (or 'in ID at T' inside an interstitial)"
                : "'in \(interstitial ?? "")' is followed by 'at T'")
        }
        guard words.count >= 3 else {
            throw fail("an action is 'at T' then pause D, seek S, mute, unmute, rate R, skip or stop")
        }
        let time = try seconds(words[words.startIndex + 1], "a number of seconds")
        let verbWord = words[words.startIndex + 2]
        let verb = verbWord.lowercased()
        let arguments = words.dropFirst(3)
        let argument = arguments.first
        let usage = ["pause": "pause D (seconds)", "seek": "seek S (a position in seconds)", "rate": "rate R (a speed)"]
        guard ["pause", "seek", "rate", "mute", "unmute", "skip", "stop"].contains(verb) else {
            throw fail("'\(verbWord)' is not an action (pause D, seek S, mute, unmute, rate R, skip, stop)")
        }
        let expected = usage[verb] == nil ? 0 : 1
        guard arguments.count <= expected else {
            let extra = arguments.dropFirst(expected).joined(separator: " ")
            throw fail("'\(extra)' is extra: " + (usage[verb].map { "\($0) takes one value" } ?? "\(verb) takes no value"))
        }
        let action: Action
        switch verb {
        case "pause":
            guard let argument else { throw fail("pause needs its duration in seconds: pause D") }
            action = .pause(seconds: try seconds(argument, "a positive number of seconds", allowsZero: false))
        case "seek":
            guard let argument else { throw fail("seek needs a position in seconds: seek S") }
            action = .seek(to: try seconds(argument, "a position in seconds"))
        case "rate":
            guard let argument else { throw fail("rate needs a speed: rate R") }
            guard let rate = Double(argument), rate.isFinite, rate > 0, rate <= 16 else {
                throw fail("'\(argument)' is not a speed between 0 and 16")
            }
            action = .rate(rate)
        case "mute": action = .mute
        case "unmute": action = .unmute
        case "skip": action = .skip
        case "stop": action = .stop
        default: throw fail("'\(verbWord)' is not an action (pause D, seek S, mute, unmute, rate R, skip, stop)")
        }
        return Step(time: time, action: action, interstitial: interstitial)
    }
}

/// What is wrong with a viewer script: the action (1 for the first; 0 for the script as a whole), its text, why.
public struct ViewerScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    public var action: Int
    public var text: String
    public var reason: String

    public var description: String {
        action == 0 ? "the script: \(reason)" : "action \(action) ('\(text)'): \(reason)"
    }
}
