#if MPV
import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceDASHPlayback
import PlaytraceHLS

/// An MPEG-DASH presentation written as HLS playlists in a private directory, for libmpv to play a live MPD through
/// FFmpeg's HLS reader and for the engine to read its dates, window and ad breaks as it reads an HLS stream's.
///
/// FFmpeg's own DASH reader cannot follow a live MPD: it ignores `UTCTiming` (a live window is found by this
/// machine's clock), starts a `SegmentTimeline` 60 s before its end, and at each refresh of a timeline whose
/// `startNumber` is not 0 it takes a segment number for an index in the timeline and goes back to the window's first
/// segment, so that timestamps run backwards. Its HLS reader follows a live playlist well. The presentation is the
/// headless engine's (``DASHPlaylists``: the first period's ladder as variants, audio and text sets as renditions,
/// periods as discontinuities, SCTE-35 events as cue tags), its segments named by absolute URLs at the origin.
///
/// The files are made again, each whole (a temporary file renamed over it), whenever ``write(elapsed:)`` is called:
/// the engine calls it every half target duration and after each refresh of the MPD. The directory is readable by
/// this user alone (segment URLs may hold tokens) and removed by ``remove()``.
final class DASHBridge {
    let session: DASHSession
    /// The private directory the playlists are written to.
    let directory: URL
    /// Each track's file name, by the DASH track URL that the presentation's multivariant playlist names it by.
    private var files: [String: String] = [:]
    private var isMultivariantWritten = false

    init(session: DASHSession, directory: URL) {
        self.session = session
        self.directory = directory
    }

    /// Makes a private directory for a presentation's playlists.
    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("playtrace-dash-\(UUID().uuidString.lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        return directory
    }

    /// The multivariant playlist libmpv loads.
    var multivariantURL: URL { directory.appendingPathComponent("master.m3u8") }

    /// Writes the multivariant playlist (once: the ladder does not change) and every track's media playlist as of
    /// the server's time at the engine's clock reading `elapsed`.
    func write(elapsed: Duration) throws {
        if !isMultivariantWritten {
            var multivariant = session.playlists.multivariantPlaylist()
            for index in multivariant.variants.indices {
                multivariant.variants[index].uri = file(for: multivariant.variants[index].uri)
            }
            for index in multivariant.renditions.indices {
                multivariant.renditions[index].uri = multivariant.renditions[index].uri.map(file(for:))
            }
            try AtomicFile.write(PlaylistWriter().write(multivariant), to: multivariantURL.path,
                                 permissions: AtomicFile.privatePermissions)
            isMultivariantWritten = true
        }
        let now = session.now(elapsed: elapsed)
        let base = session.presentation.url
        for (trackURL, name) in files {
            guard let url = URL(string: trackURL), let track = session.playlists.track(of: url),
                  var playlist = session.playlists.mediaPlaylist(track, at: now) else { continue }
            // Absolute addresses: the playlist is read from a file, its segments from the origin.
            for index in playlist.segments.indices where !playlist.segments[index].tags.isGap {
                playlist.segments[index].uri = Self.absolute(playlist.segments[index].uri, base: base)
                if var map = playlist.segments[index].tags.map {
                    map.uri = Self.absolute(map.uri, base: base)
                    playlist.segments[index].tags.map = map
                }
            }
            try AtomicFile.write(PlaylistWriter().write(playlist), to: directory.appendingPathComponent(name).path,
                                 permissions: AtomicFile.privatePermissions)
        }
    }

    /// The file name of the track a multivariant playlist's URI names, made on first use.
    private func file(for trackURL: String) -> String {
        if let name = files[trackURL] { return name }
        let name = "track-\(files.count).m3u8"
        files[trackURL] = name
        return name
    }

    /// The DASH track URL (`…manifest.mpd#video=1`) of a playlist file this bridge wrote, by the file's URL.
    func trackURL(ofFile url: String) -> String? {
        guard let file = URL(string: url), file.isFileURL,
              file.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL else { return nil }
        return files.first { $0.value == file.lastPathComponent }?.key
    }

    private static func absolute(_ uri: String, base: URL) -> String {
        URL(string: uri, relativeTo: base)?.absoluteString ?? uri
    }

    /// Removes the directory and its playlists.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
#endif
