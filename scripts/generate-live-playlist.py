#!/usr/bin/env python3
"""Writes the benchmark's live media playlist: N segments of 6 s, a program-date-time on each, and an ad break
every 50 segments signalled by EXT-X-DATERANGE (SCTE35-OUT/IN) and EXT-X-CUE-OUT/CUE-OUT-CONT/CUE-IN."""
import datetime
import sys

def generate(count: int) -> str:
    start = datetime.datetime(2026, 11, 21, 0, 0, 0, tzinfo=datetime.timezone.utc)
    lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:1000000",
             "#EXT-X-INDEPENDENT-SEGMENTS"]
    out_hex = "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A"
    for index in range(count):
        date = start + datetime.timedelta(seconds=6 * index)
        stamp = date.strftime("%Y-%m-%dT%H:%M:%S.") + f"{date.microsecond // 1000:03d}Z"
        lines.append(f"#EXT-X-PROGRAM-DATE-TIME:{stamp}")
        phase = index % 50
        if phase == 40:
            lines.append(f'#EXT-X-DATERANGE:ID="break-{index}",START-DATE="{stamp}",PLANNED-DURATION=30,SCTE35-OUT={out_hex}')
            lines.append("#EXT-X-CUE-OUT:30")
        elif 40 < phase < 45:
            lines.append(f"#EXT-X-CUE-OUT-CONT:ElapsedTime={6 * (phase - 40)},Duration=30")
        elif phase == 45:
            lines.append(f'#EXT-X-DATERANGE:ID="break-{index - 5}",START-DATE="{stamp}",SCTE35-IN={out_hex}')
            lines.append("#EXT-X-CUE-IN")
        lines.append("#EXTINF:6.000,")
        lines.append(f"https://cdn.example.com/live/channel-1/1080p/segment_{1000000 + index}.ts")
    return "\n".join(lines) + "\n"

if __name__ == "__main__":
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    with open(sys.argv[1], "w") as output:
        output.write(generate(count))
