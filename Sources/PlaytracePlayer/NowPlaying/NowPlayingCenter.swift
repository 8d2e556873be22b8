/// Where the active player is kept: one player at a time owns the system's now-playing information and remote
/// commands (Control Center, lock screen, headphones, car displays).
@MainActor
final class NowPlayingCenter {
    static let shared = NowPlayingCenter()
    weak var activePlayer: Player?
}
