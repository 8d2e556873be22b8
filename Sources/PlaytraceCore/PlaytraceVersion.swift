/// Playtrace's version, as `playtrace --version` prints it and as clients name themselves (`[CLIENTUA]`).
///
/// It follows semantic versioning; before 1.0 a minor version may change the public API.
public enum PlaytraceVersion {
    /// The version of this build: `0.9.0`.
    public static let current = "0.9.0"
}
