import Foundation
import PlaytraceCore
import PlaytraceDASH
import Testing

@Suite("A live presentation's clock: UTCTiming's requests, the server's answer, the offset")
struct ServerClockTests {
    @Test("Each scheme asks what it should and reads its answer; a value may list several URLs, only http(s) ones used")
    func schemes() throws {
        let iso = UTCTiming(scheme: .init(uri: "urn:mpeg:dash:utc:http-iso:2014"),
                            value: "https://a.example/time  ftp://b.example/t http://c.example/?iso")
        #expect(iso.requests.map(\.url.absoluteString) == ["https://a.example/time", "http://c.example/?iso"])
        #expect(iso.requests.allSatisfy { $0.method == "GET" })
        #expect(iso.serverTime(body: Array("2026-01-01T00:00:03.347Z\n".utf8), dateHeader: nil)?.secondsSince1970
                == (try StreamDate(iso8601: "2026-01-01T00:00:00Z")).secondsSince1970 + 3.347)
        #expect(iso.serverTime(body: Array("1767225603347".utf8), dateHeader: nil) == nil,
                "epoch milliseconds are not a time of this scheme (the time.akamai.com/?ms mistake)")

        let xsdate = UTCTiming(scheme: .init(uri: "urn:mpeg:dash:utc:http-xsdate:2014"), value: "https://a.example/t")
        #expect(xsdate.serverTime(body: Array("2026-01-01T00:00:00".utf8), dateHeader: nil)
                == (try StreamDate(iso8601: "2026-01-01T00:00:00Z")), "no zone: UTC")

        let head = UTCTiming(scheme: .init(uri: "urn:mpeg:dash:utc:http-head:2014"), value: "https://a.example/")
        #expect(head.requests.first?.method == "HEAD")
        #expect(head.serverTime(body: [], dateHeader: "Thu, 01 Jan 2026 00:00:05 GMT")
                == (try StreamDate(iso8601: "2026-01-01T00:00:05Z")))

        let direct = UTCTiming(scheme: .init(uri: "urn:mpeg:dash:utc:direct:2014"), value: "2026-01-01T00:00:07Z")
        let seven = try StreamDate(iso8601: "2026-01-01T00:00:07Z")
        #expect(direct.requests.isEmpty && direct.directTime == seven)
        #expect(UTCTiming(scheme: .init(uri: "urn:mpeg:dash:utc:ntp:2014"), value: "pool.ntp.org").requests.isEmpty)
    }

    @Test("The offset counts the server's time at the midpoint of the request")
    func offset() {
        let sent = StreamDate(secondsSince1970: 1_000), received = StreamDate(secondsSince1970: 1_002)
        #expect(ServerClock.offset(server: StreamDate(secondsSince1970: 1_011), sent: sent, received: received) == .seconds(10))
        #expect(ServerClock.offset(server: StreamDate(secondsSince1970: 996), sent: sent, received: received) == .seconds(-5))
    }
}
