import Foundation

/// The title of an item played from a URL: what names the stream in the summary, the report and the live view.
enum StreamTitle {
    /// The last two components of the URL's path (`vod/master.m3u8`, a local file's folder and name); with fewer,
    /// the host before them (`cdn.example:8080/x.m3u8`, or the host alone).
    static func of(_ url: URL) -> String {
        let components = url.pathComponents.filter { $0 != "/" && !$0.isEmpty }
        if components.count >= 2 || url.isFileURL { return components.suffix(2).joined(separator: "/") }
        let host = url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? ""
        return ([host] + components).filter { !$0.isEmpty }.joined(separator: "/")
    }
}
