#!/usr/bin/env python3
"""Measures the Python m3u8 package parsing a playlist file: prints "MB/s runs items" (the median of the runs in
SECONDS, and the segments or variants it found), the peer of Playtrace's ParseTimer."""
import sys
import time

import m3u8

path = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
with open(path, encoding="utf-8") as handle:
    text = handle.read()
size = len(text.encode("utf-8"))
m3u8.loads(text)  # warm-up
runs = []
deadline = time.perf_counter() + seconds
while time.perf_counter() < deadline or len(runs) < 3:
    began = time.perf_counter()
    playlist = m3u8.loads(text)
    runs.append(time.perf_counter() - began)
items = len(playlist.segments) if playlist.segments else len(playlist.playlists)
assert items > 0, "the playlist parsed to nothing"
runs.sort()
median = runs[len(runs) // 2]
print(f"{size / median / 1e6:.3f} {len(runs)} {items}")
