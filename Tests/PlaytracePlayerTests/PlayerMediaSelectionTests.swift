import Foundation
import PlaytraceCore
@testable import PlaytracePlayer
import Testing

@Suite("Player: media selection per characteristic")
@MainActor
struct PlayerMediaSelectionTests {
    private func names(_ options: [MediaSelectionOption]) -> [String] { options.map(\.displayName) }

    @Test("The menus of EXT-X-MEDIA: two audio renditions, automatic, off and the subtitles that are not forced")
    func menus() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        #expect(names(player.mediaSelectionOptions(for: .audible)) == ["English", "Français"])
        #expect(names(player.mediaSelectionOptions(for: .legible)) == ["Auto (Recommended)", "Off", "English", "Deutsch"],
                "the forced French subtitles are never offered")
        #expect(player.mediaSelectionCharacteristics == [.audible, .legible])
        #expect(player.selectedMediaOption(for: .audible).displayName == "English", "DEFAULT=YES")
        #expect(player.selectedMediaOption(for: .legible) == .automatic)
        #expect(player.currentMediaOption(for: .legible) == .off,
                "automatic, no DEFAULT subtitles and no forced subtitles in English: none")
        await harness.shutdown()
    }

    @Test("Automatic subtitles resolve to the forced subtitles of the audio's language; off keeps them; a rendition wins")
    func automaticAndForced() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let french = try #require(player.mediaSelectionOptions(for: .audible).last)
        player.select(mediaOption: french, for: .audible)
        #expect(player.currentMediaOption(for: .audible) == french, "at once (Pillarbox's testSelectAudibleOnOption)")
        await harness.advance(by: .seconds(1))
        #expect(player.currentMediaOption(for: .audible) == french)
        #expect(player.selectedMediaOption(for: .legible) == .automatic)
        #expect(player.currentMediaOption(for: .legible).displayName == "Français (forcé)")
        #expect(harness.lab.requests.all.contains { $0.path == "/vod/audio/fr.m3u8" })
        #expect(harness.lab.requests.all.contains { $0.path == "/vod/subtitles/fr-forced.m3u8" })

        let german = try #require(player.mediaSelectionOptions(for: .legible).last)
        player.select(mediaOption: german, for: .legible)
        await harness.advance(by: .seconds(1))
        #expect(player.selectedMediaOption(for: .legible) == german)
        #expect(player.currentMediaOption(for: .legible) == german)
        #expect(player.properties.mediaSelection[.subtitles] == german.option)

        player.select(mediaOption: .off, for: .legible)
        await harness.advance(by: .seconds(1))
        #expect(player.selectedMediaOption(for: .legible) == .off)
        #expect(player.currentMediaOption(for: .legible).displayName == "Français (forcé)",
                "off still shows what the French audio does not translate")
        await harness.shutdown()
    }

    @Test("An entry that is not in the menu is ignored")
    func unknownEntryIgnored() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let stranger = MediaOption(id: "subtitles:it:Italiano", kind: .subtitles, name: "Italiano", language: "it")
        player.select(mediaOption: .on(stranger), for: .legible)
        player.select(mediaOption: .automatic, for: .audible)
        await harness.advance(by: .seconds(1))
        #expect(player.selectedMediaOption(for: .legible) == .automatic)
        #expect(player.selectedMediaOption(for: .audible).displayName == "English")
        await harness.shutdown()
    }

    @Test("The choice goes on to the next item, which starts with it (preloaded with it)")
    func choiceCarriedToNextItem() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        player.select(mediaOption: try #require(player.mediaSelectionOptions(for: .audible).last), for: .audible)
        player.select(mediaOption: try #require(player.mediaSelectionOptions(for: .legible).last), for: .legible)
        await harness.advance(by: .seconds(1))
        let preloaded = try #require(harness.engines.last)
        let next = await preloaded.snapshot()
        #expect(next.selectedMediaOption(for: .audio)?.language == "fr", "the preloaded item already has the choice")
        #expect(next.selectedMediaOption(for: .subtitles)?.language == "de")
        player.advanceToNextItem()
        await harness.advance(by: .seconds(1))
        #expect(player.currentItem === player.items.last)
        #expect(player.currentMediaOption(for: .audible).option?.language == "fr")
        #expect(player.currentMediaOption(for: .legible).option?.language == "de")
        await harness.shutdown()
    }

    @Test("A language preference applies from the start of every item; setting it forgets the menu choice")
    func preferences() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness()
        let player = harness.player!
        player.setMediaSelectionPreference(.on(languages: "fr-CH", "en"), for: .audible)
        player.setMediaSelectionPreference(.on(languages: "it", "de"), for: .legible)
        player.append(harness.item("A", log: log))
        await harness.advance(by: .seconds(1))
        #expect(player.currentMediaOption(for: .audible).option?.language == "fr", "fr-CH speaks French")
        #expect(player.currentMediaOption(for: .legible).option?.language == "de", "no Italian: the next language")
        player.select(mediaOption: .off, for: .legible)
        player.setMediaSelectionPreference(.on(languages: "en"), for: .legible)
        await harness.advance(by: .seconds(1))
        #expect(player.selectedMediaOption(for: .legible).option?.language == "en")
        #expect(player.mediaSelectionPreference(for: .legible) == .on(languages: "en"))
        player.setMediaSelectionPreference(.off, for: .legible)
        await harness.advance(by: .seconds(1))
        #expect(player.currentMediaOption(for: .legible).displayName == "Français (forcé)")
        await harness.shutdown()
    }

    @Test("A stream without renditions offers no menu")
    func noRenditions() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("L", log: log, path: "live/master.m3u8")] }
        let player = harness.player!
        #expect(player.mediaSelectionCharacteristics.isEmpty)
        #expect(player.mediaSelectionOptions(for: .legible).isEmpty)
        #expect(player.selectedMediaOption(for: .legible) == .off)
        await harness.shutdown()
    }
}

@Suite("Media selection rules")
struct MediaSelectorTests {
    private static func audio(_ language: String, isDefault: Bool = false, characteristics: [String] = [],
                              id: String? = nil) -> MediaOption {
        MediaOption(id: id ?? "a-\(language)-\(characteristics.count)", kind: .audio, name: language,
                    language: language, isDefault: isDefault, characteristics: characteristics)
    }

    private static func subtitles(_ language: String, forced: Bool = false, isDefault: Bool = false) -> MediaOption {
        MediaOption(id: "s-\(language)-\(forced)", kind: .subtitles, name: language, language: language,
                    isDefault: isDefault, isForced: forced)
    }

    @Test("A lone audio rendition and forced-only subtitles make no menu")
    func noChoiceNoMenu() {
        let selector = MediaSelector(options: [Self.audio("en"), Self.subtitles("en", forced: true)], settings: [:])
        #expect(selector.menu(for: .audible).isEmpty)
        #expect(selector.menu(for: .legible).isEmpty)
        #expect(selector.target(for: .audio)?.language == "en")
        #expect(selector.target(for: .subtitles)?.isForced == true, "forced subtitles of the audio's language show")
    }

    @Test("Audio without a preference: DEFAULT, else AUTOSELECT, else the first")
    func audioDefaults() {
        let autoselect = MediaOption(id: "x", kind: .audio, name: "x", language: "it", isAutoSelect: true)
        #expect(MediaSelector(options: [Self.audio("en"), autoselect], settings: [:]).target(for: .audio) == autoselect)
        #expect(MediaSelector(options: [Self.audio("en"), Self.audio("fr", isDefault: true)], settings: [:])
            .target(for: .audio)?.language == "fr")
        #expect(MediaSelector(options: [Self.audio("en"), Self.audio("fr")], settings: [:]).target(for: .audio)?.language == "en")
    }

    @Test("A choice made on another item finds its counterpart by language and characteristics")
    func counterparts() {
        let described = "public.accessibility.describes-video"
        let chosen = Self.audio("fr", characteristics: [described], id: "other-item-id")
        let options = [Self.audio("en", isDefault: true), Self.audio("fr"), Self.audio("fr", characteristics: [described])]
        var setting = MediaSelectionSetting()
        setting.choice = .on(chosen)
        let target = MediaSelector(options: options, settings: [.audible: setting]).target(for: .audio)
        #expect(target == options[2])
        setting.choice = .on(Self.audio("ja"))
        #expect(MediaSelector(options: options, settings: [.audible: setting]).target(for: .audio) == options[0],
                "no Japanese here: the default")
    }

    @Test("Subtitles: the stream's DEFAULT ones are automatic; languages match on the primary tag")
    func subtitleRules() {
        let options = [Self.audio("en"), Self.subtitles("en", isDefault: true), Self.subtitles("pt-BR")]
        #expect(MediaSelector(options: options, settings: [:]).target(for: .subtitles)?.language == "en")
        let off = MediaSelector(options: options, settings: [.legible: MediaSelectionSetting(preference: .off)])
        #expect(off.target(for: .subtitles) == nil)
        #expect(off.selection(for: .legible) == .off)
        let portuguese = MediaSelector(options: options,
                                       settings: [.legible: MediaSelectionSetting(preference: .on(languages: "PT"))])
        #expect(portuguese.target(for: .subtitles)?.language == "pt-BR")
        #expect(portuguese.selection(for: .legible) == .on(options[2]))
    }
}
