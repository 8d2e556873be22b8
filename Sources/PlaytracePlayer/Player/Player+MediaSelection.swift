import PlaytraceCore

extension Player {
    /// The characteristics the current item offers a choice of (what a settings menu lists).
    public var mediaSelectionCharacteristics: Set<MediaCharacteristic> {
        Set(MediaCharacteristic.allCases.filter { !mediaSelectionOptions(for: $0).isEmpty })
    }

    /// The entries of a media selection menu for the current item: for ``MediaCharacteristic/audible``, its audio
    /// renditions when there are at least two; for ``MediaCharacteristic/legible``, ``MediaSelectionOption/automatic``,
    /// ``MediaSelectionOption/off`` and its subtitles, forced ones left out (they show by themselves).
    ///
    /// ```swift
    /// for option in player.mediaSelectionOptions(for: .legible) {
    ///     print(option.displayName, option == player.selectedMediaOption(for: .legible) ? "✓" : "")
    /// }
    /// ```
    /// - Parameter characteristic: audible or legible.
    public func mediaSelectionOptions(for characteristic: MediaCharacteristic) -> [MediaSelectionOption] {
        selector.menu(for: characteristic)
    }

    /// The menu entry that reads as chosen: the audio that plays, or the subtitles mode (automatic, off, or the
    /// subtitles chosen or preferred, when the item has them).
    /// - Parameter characteristic: audible or legible.
    public func selectedMediaOption(for characteristic: MediaCharacteristic) -> MediaSelectionOption {
        selector.selection(for: characteristic)
    }

    /// What plays now: the rendition the engine renders (for subtitles in automatic mode, what automatic resolved
    /// to, forced subtitles included), or ``MediaSelectionOption/off``. It follows a selection at once, as Pillarbox's
    /// does: the rendition asked of the engine, before the engine has switched to it.
    /// - Parameter characteristic: audible or legible.
    public func currentMediaOption(for characteristic: MediaCharacteristic) -> MediaSelectionOption {
        let kind = characteristic.kind
        if let asked = session?.requestedMediaSelection[kind] {
            return asked.flatMap { id in renditions.options.first { $0.id == id } }.map { .on($0) } ?? .off
        }
        return renditions.selectedOption(for: kind).map { .on($0) } ?? .off
    }

    /// Chooses a menu entry. The choice outlives the item: the next items play the rendition of the same language
    /// and accessibility characteristics, or their automatic choice when they have none. An entry the current
    /// menu does not hold is ignored (Pillarbox's rule).
    /// - Parameters:
    ///   - mediaOption: one of ``mediaSelectionOptions(for:)``.
    ///   - characteristic: audible or legible.
    public func select(mediaOption: MediaSelectionOption, for characteristic: MediaCharacteristic) {
        guard mediaSelectionOptions(for: characteristic).contains(mediaOption) else { return }
        mediaSelectionSettings[characteristic, default: MediaSelectionSetting()].choice = mediaOption
        applyMediaSelection()
    }

    /// Sets the rule for every item from now on (languages to prefer, automatic, or off), forgetting the entry
    /// chosen from a menu.
    ///
    /// ```swift
    /// player.setMediaSelectionPreference(.on(languages: "fr", "en"), for: .audible)
    /// player.setMediaSelectionPreference(.off, for: .legible)
    /// ```
    /// - Parameters:
    ///   - preference: the rule.
    ///   - characteristic: audible or legible.
    public func setMediaSelectionPreference(_ preference: MediaSelectionPreference,
                                            for characteristic: MediaCharacteristic) {
        mediaSelectionSettings[characteristic] = MediaSelectionSetting(preference: preference)
        applyMediaSelection()
    }

    /// The rule set by ``setMediaSelectionPreference(_:for:)`` (``MediaSelectionPreference/automatic`` by default).
    /// - Parameter characteristic: audible or legible.
    public func mediaSelectionPreference(for characteristic: MediaCharacteristic) -> MediaSelectionPreference {
        mediaSelectionSettings[characteristic]?.preference ?? .automatic
    }

    private var selector: MediaSelector {
        MediaSelector(options: renditions.options, settings: mediaSelectionSettings)
    }

    /// Brings the renditions of the current and preloaded sessions in line with the viewer's settings.
    func applyMediaSelection() {
        for session in [session, preloadedSession].compactMap(\.self) { applyMediaSelection(in: session) }
    }

    /// Asks a session's engine for the renditions the settings call for, once it knows its renditions; a
    /// rendition already asked for is not asked again.
    func applyMediaSelection(in session: ItemSession) {
        let snapshot = session.snapshot
        guard !snapshot.mediaOptions.isEmpty else { return }
        let selector = MediaSelector(options: snapshot.mediaOptions, settings: mediaSelectionSettings)
        for kind in MediaOption.Kind.allCases {
            let target = selector.target(for: kind)?.id
            // What the engine plays, or will once it has taken the last request.
            let current = session.requestedMediaSelection[kind] ?? snapshot.selectedMediaOptions[kind]
            guard current != target else { continue }
            session.requestedMediaSelection[kind] = .some(target)
            session.send { await $0.selectMediaOption(target, for: kind) }
        }
    }
}
