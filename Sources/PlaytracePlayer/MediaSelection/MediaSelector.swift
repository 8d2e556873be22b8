/// What the viewer asked for, for one characteristic: a preference, and the rendition chosen from a menu, if any
/// (a choice outranks the preference; setting a preference forgets the choice).
struct MediaSelectionSetting: Sendable, Hashable {
    var preference = MediaSelectionPreference.automatic
    var choice: MediaSelectionOption?
}

/// The rules of media selection, apart from any engine: which renditions a menu offers and which one plays, given
/// an item's renditions and the viewer's settings. The settings belong to the player, so that a choice made on one
/// item applies to the next (matched by language and accessibility characteristics: items have their own IDs).
struct MediaSelector: Sendable {
    let options: [MediaOption]
    let settings: [MediaCharacteristic: MediaSelectionSetting]

    /// The menu for a characteristic: for audio, the renditions when there are at least two (a lone rendition is
    /// no choice); for subtitles, automatic, off and the renditions that are not forced, when there is one.
    func menu(for characteristic: MediaCharacteristic) -> [MediaSelectionOption] {
        switch characteristic {
        case .audible:
            let audio = options(of: .audio)
            return audio.count > 1 ? audio.map { .on($0) } : []
        case .legible:
            let regular = regularSubtitles
            return regular.isEmpty ? [] : [.automatic, .off] + regular.map { .on($0) }
        }
    }

    /// The rendition that should play for a kind of media (`nil`: no subtitles; audio always has one when the item
    /// offers any).
    func target(for kind: MediaOption.Kind) -> MediaOption? {
        switch kind {
        case .audio: audioTarget
        case .subtitles: subtitlesTarget.option
        }
    }

    /// What a menu shows as chosen: the rendition that plays (audio), or the viewer's mode (subtitles: automatic,
    /// off, or the rendition chosen or preferred when the item has it). An entry the menu does not hold reads as
    /// ``MediaSelectionOption/off``.
    func selection(for characteristic: MediaCharacteristic) -> MediaSelectionOption {
        let selection: MediaSelectionOption = switch characteristic {
        case .audible: audioTarget.map { .on($0) } ?? .off
        case .legible: subtitlesTarget.selection
        }
        return menu(for: characteristic).contains(selection) ? selection : .off
    }

    private func options(of kind: MediaOption.Kind) -> [MediaOption] {
        options.filter { $0.kind == kind }
    }

    private var regularSubtitles: [MediaOption] {
        options.filter { $0.kind == .subtitles && !$0.isForced }
    }

    private func setting(_ characteristic: MediaCharacteristic) -> MediaSelectionSetting {
        settings[characteristic] ?? MediaSelectionSetting()
    }

    private var audioTarget: MediaOption? {
        let audio = options(of: .audio)
        guard !audio.isEmpty else { return nil }
        let setting = setting(.audible)
        if let chosen = setting.choice?.option, let match = Self.counterpart(of: chosen, in: audio) { return match }
        if case .on(let languages) = setting.preference.rule, let match = Self.first(of: languages, in: audio) {
            return match
        }
        return audio.first(where: \.isDefault) ?? audio.first(where: \.isAutoSelect) ?? audio[0]
    }

    /// The subtitles to show, and what a menu shows as chosen.
    private var subtitlesTarget: (option: MediaOption?, selection: MediaSelectionOption) {
        let setting = setting(.legible)
        let regular = regularSubtitles
        switch setting.choice {
        case .on(let chosen):
            if let match = Self.counterpart(of: chosen, in: regular) { return (match, .on(match)) }
            return (automaticSubtitles, .automatic)
        case .off: return (forcedSubtitles, .off)
        case .automatic: return (automaticSubtitles, .automatic)
        case nil: break
        }
        switch setting.preference.rule {
        case .automatic: return (automaticSubtitles, .automatic)
        case .off: return (forcedSubtitles, .off)
        case .on(let languages):
            if let match = Self.first(of: languages, in: regular) { return (match, .on(match)) }
            return (automaticSubtitles, .automatic)
        }
    }

    /// The stream's default subtitles, else the forced ones of the audio's language.
    private var automaticSubtitles: MediaOption? {
        regularSubtitles.first(where: \.isDefault) ?? forcedSubtitles
    }

    /// Forced subtitles in the language of the audio that plays (they translate signs and foreign dialogue).
    private var forcedSubtitles: MediaOption? {
        let forced = options.filter { $0.kind == .subtitles && $0.isForced }
        guard let language = audioTarget?.language else { return forced.count == 1 ? forced[0] : nil }
        return Self.first(of: [language], in: forced)
    }

    /// The rendition of another item that is the same as `chosen`: the same ID, else the same language and
    /// characteristics, else the same language.
    static func counterpart(of chosen: MediaOption, in candidates: [MediaOption]) -> MediaOption? {
        if let same = candidates.first(where: { $0.id == chosen.id }) { return same }
        guard let language = chosen.language else { return nil }
        let speaking = candidates.filter { LanguageTag.matches($0.language, language) }
        return speaking.first { Set($0.characteristics) == Set(chosen.characteristics) } ?? speaking.first
    }

    /// The first candidate in the first of `languages` that one has (an exact tag before a primary-language match).
    static func first(of languages: [String], in candidates: [MediaOption]) -> MediaOption? {
        for language in languages {
            if let exact = candidates.first(where: { $0.language?.lowercased() == language.lowercased() }) {
                return exact
            }
            if let close = candidates.first(where: { LanguageTag.matches($0.language, language) }) { return close }
        }
        return nil
    }
}

/// RFC 5646 language tags compared as a viewer expects: `fr`, `fr-CH` and `FR-ch` all speak French.
enum LanguageTag {
    static func matches(_ tag: String?, _ other: String) -> Bool {
        guard let tag else { return false }
        return primary(tag) == primary(other)
    }

    private static func primary(_ tag: String) -> Substring {
        Substring(tag.lowercased()).prefix { $0 != "-" && $0 != "_" }
    }
}
