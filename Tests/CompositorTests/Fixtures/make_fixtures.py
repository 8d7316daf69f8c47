#!/usr/bin/env python3
"""Writes the PNG fixtures the codec tests read. Run from this folder; output is deterministic.

Every image is 4x3 with a known pattern so the tests can check decoded pixels exactly:
pixel (x, y) has red = 60*x, green = 100*y, blue = 200, alpha as noted per file.
"""
import struct, zlib

W, H = 4, 3

def chunk(kind, data):
    c = struct.pack(">I", len(data)) + kind + data
    return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

def png(color_type, bit_depth, rows, extra=b"", interlace=0):
    ihdr = struct.pack(">IIBBBBB", W, H, bit_depth, color_type, 0, 0, interlace)
    raw = b"".join(b"\x00" + r for r in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

def px(x, y):
    return 60 * x, 100 * y, 200

# 8-bit RGBA, alpha = 255 except (1, 1) at alpha 128 and (2, 2) fully transparent.
def alpha(x, y):
    return 128 if (x, y) == (1, 1) else 0 if (x, y) == (2, 2) else 255
rgba = [b"".join(bytes([*px(x, y), alpha(x, y)]) for x in range(W)) for y in range(H)]
open("rgba8.png", "wb").write(png(6, 8, rgba))

# 16-bit RGB: each 8-bit value v stored as v*257 (exact 8-bit reduction).
rgb16 = [b"".join(struct.pack(">HHH", *(v * 257 for v in px(x, y))) for x in range(W)) for y in range(H)]
open("rgb16.png", "wb").write(png(2, 16, rgb16))

# 8-bit grey: value 20*(x + 4y).
grey = [bytes(20 * (x + 4 * y) for x in range(W)) for y in range(H)]
open("grey8.png", "wb").write(png(0, 8, grey))

# 16-bit grey + alpha: grey 20*(x+4y) (times 257), alpha 0xFFFF except (0,0) at 0x8080.
ga16 = [b"".join(struct.pack(">HH", 20 * (x + 4 * y) * 257, 0x8080 if (x, y) == (0, 0) else 0xFFFF)
                 for x in range(W)) for y in range(H)]
open("greyalpha16.png", "wb").write(png(4, 16, ga16))

# Palette with tRNS: index = (x + y) % 3; palette red, green, blue; index 2 has alpha 64.
plte = chunk(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255]))
trns = chunk(b"tRNS", bytes([255, 255, 64]))
pal = [bytes((x + y) % 3 for x in range(W)) for y in range(H)]
open("palette.png", "wb").write(png(3, 8, pal, extra=plte + trns))

# Adam7-interlaced 8-bit RGB of the same pattern.
passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
raw = b""
for x0, y0, dx, dy in passes:
    xs = list(range(x0, W, dx)); ys = list(range(y0, H, dy))
    if not xs or not ys:
        continue
    for y in ys:
        raw += b"\x00" + b"".join(bytes(px(x, y)) for x in xs)
ihdr = struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 1)
open("interlaced.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

# Truncated: the RGBA file cut in the middle of its IDAT chunk.
data = open("rgba8.png", "rb").read()
open("truncated.png", "wb").write(data[: len(data) - 20])

# Not a PNG at all.
open("not-a-png.png", "wb").write(b"GIF89a this is not a PNG file\n")
