import PlaytracePlayer
import Testing

@Suite("StallTally: the stalls both engines count alike")
struct StallTallyTests {
    @Test("A stall counts once, its time while under way and after; a second begin is no new stall")
    func countsAndTime() {
        var stalls = StallTally()
        #expect(!stalls.isStalled && stalls.total(at: .seconds(5)) == .zero)
        let nothing = stalls.end(at: .seconds(5))
        #expect(nothing == nil, "no stall to end")
        let first = stalls.begin(at: .seconds(10))
        let again = stalls.begin(at: .seconds(11))
        #expect(first && !again, "one under way already")
        #expect(stalls.count == 1 && stalls.isStalled)
        #expect(stalls.total(at: .seconds(12)) == .seconds(2))
        let length = stalls.end(at: .seconds(13))
        #expect(length == .seconds(3))
        stalls.begin(at: .seconds(20))
        #expect(stalls.total(at: .milliseconds(20_500)) == .milliseconds(3_500))
        let second = stalls.end(at: .seconds(21))
        #expect(second == .seconds(1))
        #expect(stalls.count == 2 && stalls.total(at: .seconds(99)) == .seconds(4))
    }
}
