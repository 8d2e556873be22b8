import ArgumentParser
import Foundation
import PlaytraceLab

struct Lab: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the lab on loopback: HLS VOD, live and DVR streams with ad breaks, fault injection, a request log.")

    @OptionGroup var common: CommonOptions

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    func run() async throws {
        common.bootstrapLogging()
        let lab = LabServer(clock: ContinuousClock())
        let host = self.host
        try await lab.serveUntilSignalled(host: host, port: port) { bound in
            print("""
                Playtrace lab on http://\(host):\(bound)
                  streams:  /vod/master.m3u8  /live/master.m3u8  /dvr/master.m3u8  /fmp4/master.m3u8
                  faults:   POST /lab/faults {"path": "/vod/2/", "type": "status|delay|drop|throttle", "value": N, "count": N}
                            GET /lab/faults, DELETE /lab/faults
                  requests: GET /lab/requests
                Press Ctrl-C to stop.
                """)
        }
        print("lab stopped after \(lab.requests.all.count) requests")
    }
}
