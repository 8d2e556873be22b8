/// Where an item sits in a series.
public enum EpisodeInformation: Sendable, Hashable {
    /// A season and an episode number.
    case long(season: Int, episode: Int)
    /// An episode number alone.
    case short(episode: Int)
}
