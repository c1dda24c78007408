#!/usr/bin/env python3
"""Writes the small PNGs used by tests/unit/buffers_test.cpp, with only the
standard library (zlib + struct), so the expected pixel values are known
exactly and no image library is needed to regenerate them.

    python3 tests/data/images/make_test_images.py

rgb_4x3.png: 4 wide, 3 high, 8-bit RGB, pixel (x, y) =
    R = 20 + 40*x, G = 30 + 60*y, B = 7 + 50*x + 10*y
"""
import os
import struct
import zlib


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def write_png(path, width, height, rows):
    # colour type 2 = RGB, 8 bits per sample; each row starts with filter byte 0
    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    w, h = 4, 3
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            row += [20 + 40 * x, 30 + 60 * y, 7 + 50 * x + 10 * y]
        rows.append(row)
    write_png(os.path.join(here, "rgb_4x3.png"), w, h, rows)


if __name__ == "__main__":
    main()
