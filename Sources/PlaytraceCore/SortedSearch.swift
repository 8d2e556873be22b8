extension Array where Element: Comparable {
    /// In an ascending array, the position of the last element at or before `value`; `nil` when every element is
    /// after it. A binary search.
    package func lastIndex(atOrBefore value: Element) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }
}
