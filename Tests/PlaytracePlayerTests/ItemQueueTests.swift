import Testing
@testable import PlaytracePlayer

@Suite("Item queue: playlist editing and navigation")
struct ItemQueueTests {
    final class Item: Sendable, CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        var description: String { name }
    }

    let a = Item("a"), b = Item("b"), c = Item("c"), d = Item("d")

    func names(_ items: [Item]) -> [String] { items.map(\.name) }

    @Test func startsOnTheFirstItemAndDropsDuplicates() {
        let queue = ItemQueue(items: [a, b, a, c])
        #expect(names(queue.items) == ["a", "b", "c"])
        #expect(queue.currentItem === a)
        #expect(queue.previousItems.isEmpty && names(queue.nextItems) == ["b", "c"])
        #expect(ItemQueue<Item>().currentItem == nil)
    }

    @Test func insertsRelativeToItemsAndRefusesDuplicatesAndStrangers() {
        var queue = ItemQueue(items: [a, b])
        let result1 = queue.insert(c, before: b)
        #expect(result1)
        #expect(names(queue.items) == ["a", "c", "b"])
        let result2 = queue.insert(d, after: a)
        #expect(result2)
        #expect(names(queue.items) == ["a", "d", "c", "b"])
        let duplicate = queue.insert(a, after: b)
        #expect(!duplicate, "an item already queued is refused")
        let stranger = queue.insert(Item("x"), before: Item("stranger"))
        #expect(!stranger, "the reference item must be queued")
        #expect(names(queue.items) == ["a", "d", "c", "b"])
    }

    @Test func prependAndAppendKeepTheCurrentItem() {
        var queue = ItemQueue(items: [b])
        let result3 = queue.prepend(a)
        #expect(result3)
        let result4 = queue.append(c)
        #expect(result4)
        #expect(names(queue.items) == ["a", "b", "c"])
        #expect(queue.currentItem === b && queue.currentIndex == 1)
        #expect(names(queue.previousItems) == ["a"] && names(queue.nextItems) == ["c"])
    }

    @Test func movesItemsAndFollowsTheCurrentOne() {
        var queue = ItemQueue(items: [a, b, c, d])
        queue.setCurrent(b)
        let result5 = queue.move(d, before: a)
        #expect(result5)
        #expect(names(queue.items) == ["d", "a", "b", "c"] && queue.currentItem === b)
        let result6 = queue.move(d, after: c)
        #expect(result6)
        #expect(names(queue.items) == ["a", "b", "c", "d"])
        let result7 = queue.move(a, after: nil)
        #expect(result7)
        #expect(names(queue.items) == ["b", "c", "d", "a"])
        let result8 = queue.move(a, before: nil)
        #expect(result8)
        #expect(names(queue.items) == ["a", "b", "c", "d"] && queue.currentIndex == 1)
        let stranger = queue.move(Item("x"), before: a)
        let ontoItself = queue.move(a, before: a)
        let afterStranger = queue.move(a, after: Item("y"))
        #expect(!stranger && !ontoItself && !afterStranger)
    }

    /// Pillarbox: `ItemMoveBeforeTests.testMoveItemBeforeIdenticalItem` and `ItemMoveAfterTests.testMoveItemAfterIdenticalItem`:
    /// moves that change nothing are refused.
    @Test func movesThatChangeNothingAreRefused() {
        var queue = ItemQueue(items: [a, b, c])
        let refused = [queue.move(a, before: nil), queue.move(a, before: b), queue.move(c, after: nil),
                       queue.move(c, after: b), queue.move(b, after: a), queue.move(b, before: c)]
        #expect(refused == [false, false, false, false, false, false])
        #expect(names(queue.items) == ["a", "b", "c"])
        let moved = queue.move(a, after: b)
        #expect(moved && names(queue.items) == ["b", "a", "c"])
    }

    @Test func removingTheCurrentItemMakesTheNextOneCurrent() {
        var queue = ItemQueue(items: [a, b, c])
        queue.setCurrent(b)
        let result9 = queue.remove(b)
        #expect(result9)
        #expect(queue.currentItem === c)
        let result10 = queue.remove(c)
        #expect(result10)
        #expect(queue.currentItem === a, "the last item removed: the previous one becomes current")
        let removed = queue.remove(a)
        #expect(removed && queue.currentItem == nil)
        let removedAgain = queue.remove(a)
        #expect(!removedAgain)
        var other = ItemQueue(items: [a, b, c])
        other.setCurrent(c)
        other.remove(a)
        #expect(other.currentItem === c && other.currentIndex == 1)
        other.removeAll()
        #expect(other.items.isEmpty && other.currentItem == nil)
    }

    @Test func replacingTheListKeepsTheCurrentItemWhenItStays() {
        var queue = ItemQueue(items: [a, b, c])
        queue.setCurrent(b)
        queue.setItems([d, b, a])
        #expect(queue.currentItem === b && queue.currentIndex == 1)
        queue.setItems([c, d])
        #expect(queue.currentItem === c)
        queue.setItems([])
        #expect(queue.currentItem == nil)
    }

    @Test(arguments: [RepeatMode.off, .one, .all])
    func navigationHonoursTheRepeatMode(mode: RepeatMode) {
        var queue = ItemQueue(items: [a, b, c])
        #expect(queue.nextItem(repeatMode: mode) === b)
        #expect(queue.previousItem(repeatMode: mode) === (mode == .all ? c : nil))
        queue.setCurrent(c)
        #expect(queue.nextItem(repeatMode: mode) === (mode == .all ? a : nil))
        #expect(queue.previousItem(repeatMode: mode) === b)
        let madeCurrent = queue.setCurrent(Item("x"))
        #expect(!madeCurrent && queue.currentItem === c)
    }
}
