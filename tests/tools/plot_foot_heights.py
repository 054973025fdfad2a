#!/usr/bin/env python3
"""Plots the foot heights `articula-cli contacts IN --out OUT --heights CSV` writes, as a PNG,
so the steps of each foot can be counted by eye (standard library only: no numpy, no fonts).

    python3 plot_foot_heights.py heights.csv plot.png

One panel per foot, top to bottom in the CSV's order; in each panel the ankle height is
drawn in blue and the toe height in red (model space, Y up; each panel scaled to the lowest
and highest height of that foot,
1st to 99th percentile, with outliers clamped to the edge). Thin grey vertical lines mark every 10th frame, dark grey
every 50th; horizontal lines mark each tenth of the panel's height range.
"""
import csv
import struct
import sys
import zlib

PANEL_HEIGHT = 300
MARGIN = 10
PIXELS_PER_FRAME = 3
BACKGROUND = (255, 255, 255)
GRID_MINOR = (225, 225, 225)
GRID_MAJOR = (140, 140, 140)
SERIES_COLOURS = [(20, 60, 220), (220, 30, 30)]  # ankle, toe


def read_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    columns = {name: [] for name in header}
    for row in body:
        for name, cell in zip(header, row):
            columns[name].append(float(cell) if cell else None)
    return header, columns


def write_png(path, width, height, pixels):
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter type: none
        raw.extend(pixels[y * width * 3:(y + 1) * width * 3])

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(raw), 9)))
        f.write(chunk(b"IEND", b""))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_foot_heights.py heights.csv plot.png")
    header, columns = read_columns(sys.argv[1])
    frames = len(columns["frame"])
    feet = []  # (ankle column, toe column) per foot
    for name in header[2:]:
        if name.endswith(".ankle_y"):
            feet.append((name, name[: -len(".ankle_y")] + ".toe_y"))
    width = 2 * MARGIN + frames * PIXELS_PER_FRAME
    height = len(feet) * (PANEL_HEIGHT + MARGIN) + MARGIN
    pixels = bytearray(BACKGROUND * (width * height))

    def put(x, y, colour):
        if 0 <= x < width and 0 <= y < height:
            pixels[(y * width + x) * 3:(y * width + x) * 3 + 3] = bytes(colour)

    def line(x0, y0, x1, y1, colour):
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for s in range(steps + 1):
            put(round(x0 + (x1 - x0) * s / steps), round(y0 + (y1 - y0) * s / steps), colour)

    for panel, (ankle, toe) in enumerate(feet):
        top = MARGIN + panel * (PANEL_HEIGHT + MARGIN)
        values = sorted(v for name in (ankle, toe) if name in columns for v in columns[name] if v is not None)
        # Scaled to the 1st..99th percentile, outliers clamped to the panel's edge: a lone
        # reference pose (CMU files start with one) must not flatten the walk.
        low, high = values[len(values) // 100], values[-1 - len(values) // 100]
        span = (high - low) or 1.0
        for f in range(0, frames, 10):
            x = MARGIN + f * PIXELS_PER_FRAME
            line(x, top, x, top + PANEL_HEIGHT, GRID_MAJOR if f % 50 == 0 else GRID_MINOR)
        for k in range(11):
            y = top + round(k * PANEL_HEIGHT / 10)
            line(MARGIN, y, width - MARGIN, y, GRID_MINOR)
        for colour, name in zip(SERIES_COLOURS, (ankle, toe)):
            series = columns.get(name, [])
            previous = None
            for f, v in enumerate(series):
                if v is None:
                    previous = None
                    continue
                level = min(max((v - low) / span, 0.0), 1.0)
                point = (MARGIN + f * PIXELS_PER_FRAME, top + PANEL_HEIGHT - round(level * PANEL_HEIGHT))
                if previous:
                    line(previous[0], previous[1], point[0], point[1], colour)
                previous = point
    write_png(sys.argv[2], width, height, pixels)


if __name__ == "__main__":
    main()
