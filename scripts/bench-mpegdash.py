#!/usr/bin/env python3
"""Measures Python's mpegdash package parsing an MPD file: prints "MB/s runs items" (the median of the runs in
SECONDS; items = representations plus S elements, as ParseTimer counts them), the peer of Playtrace's ParseTimer."""
import sys
import time

from mpegdash.parser import MPEGDASHParser

path = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
with open(path, encoding="utf-8") as handle:
    text = handle.read()
size = len(text.encode("utf-8"))


def items(mpd):
    count = 0
    for period in mpd.periods or []:
        for adaptation_set in period.adaptation_sets or []:
            count += len(adaptation_set.representations or [])
            for template in adaptation_set.segment_templates or []:
                for timeline in template.segment_timelines or []:
                    count += len(timeline.Ss or [])
    return count


found = items(MPEGDASHParser.parse(text))  # warm-up
runs = []
deadline = time.perf_counter() + seconds
while time.perf_counter() < deadline or len(runs) < 3:
    began = time.perf_counter()
    MPEGDASHParser.parse(text)
    runs.append(time.perf_counter() - began)
assert found > 0, "the MPD parsed to nothing"
runs.sort()
median = runs[len(runs) // 2]
print(f"{size / median / 1e6:.3f} {len(runs)} {found}")
