#!/usr/bin/env python3
"""The pinned random-init values in tests/unit/buffers_test.cpp, computed without the C++ code.

runtime/data/buffers.cpp fills "uniform" and "normal" buffers from
SplitMix64 of (seed, k), k the draw's number, through its own transforms:

  draw(seed, k)     = SplitMix64's output after k+1 steps from state `seed`
  unit_open_high(d) = (d >> 11) * 2^-53          in [0, 1)
  unit_open_low(d)  = ((d >> 11) + 1) * 2^-53    in (0, 1]
  uniform float:    element i = min + (max - min) * unit_open_high(draw(seed, i)),
                    stored as the buffer's type (f32: rounded to nearest float)
  uniform integer:  lo + floor(unit_open_high(draw(seed, i)) * (hi - lo + 1)),
                    capped at hi, with lo = ceil(min), hi = floor(max)
  normal:           Box-Muller on the pair of draws 2j, 2j+1: u1 = unit_open_low,
                    u2 = unit_open_high, r = sqrt(-2 ln u1), t = 2 pi u2;
                    element 2j = mean + sd r cos t, element 2j+1 = mean + sd r sin t

SplitMix64 is implemented here from Steele, Lea and Flood's algorithm (as in
Vigna's splitmix64.c) and checked against its well-known first output for
seed 1234567: 6457827717110365317.

  python3 tests/tools/buffer_init_values.py           prints the values
  python3 tests/tools/buffer_init_values.py --check tests/unit/buffers_test.cpp
                                                      fails unless the test pins exactly these
"""
import math
import re
import struct
import sys

MASK64 = (1 << 64) - 1


def draw(seed, k):
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def unit_open_high(d):
    return float(d >> 11) * 2.0 ** -53


def unit_open_low(d):
    return float((d >> 11) + 1) * 2.0 ** -53


def as_f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def uniform_float(seed, lo, hi, n, f32):
    out = [lo + (hi - lo) * unit_open_high(draw(seed, i)) for i in range(n)]
    return [as_f32(v) for v in out] if f32 else out


def uniform_int(seed, lo, hi, n):
    lo, hi = math.ceil(lo), math.floor(hi)
    values = hi - lo + 1
    return [min(lo + math.floor(unit_open_high(draw(seed, i)) * values), hi) for i in range(n)]


def normal(seed, mean, sd, n):
    out = []
    while len(out) < n:
        j = len(out)
        u1 = unit_open_low(draw(seed, j))
        u2 = unit_open_high(draw(seed, j + 1))
        r = math.sqrt(-2.0 * math.log(u1))
        t = 2.0 * math.pi * u2
        out += [mean + sd * r * math.cos(t), mean + sd * r * math.sin(t)]
    return out[:n]


def self_check():
    got = draw(1234567, 0)
    if got != 6457827717110365317:
        sys.exit(f"SplitMix64 is wrong: the first output of seed 1234567 is {got}, not 6457827717110365317")


# (test name in buffers_test.cpp, the values it must pin, in order, as written there)
def pinned():
    return [
        ("UniformFloatFirstValuesArePinned",
         [repr(v) + "f" for v in uniform_float(42, -1.0, 1.0, 4, f32=True)] +
         [repr(v) for v in uniform_float(42, -1.0, 1.0, 4, f32=False)]),
        ("UniformIntegersCoverBothEndsEvenly",
         ["{" + ", ".join(str(v) for v in uniform_int(7, 0, 255, 8)) + "}"]),
        # Five elements requested; the fifth is only checked to be finite.
        ("NormalFirstValuesArePinned", [repr(v) for v in normal(3, 10.0, 2.0, 5)[:4]]),
    ]


def check(test_file):
    text = open(test_file, encoding="utf-8").read()
    failed = False
    for name, literals in pinned():
        m = re.search(r"TEST\(BufferInit, " + name + r"\)(.*?)\n}\n", text, re.S)
        if not m:
            print(f"{test_file}: no TEST(BufferInit, {name})")
            failed = True
            continue
        body, pos = m.group(1), 0
        for lit in literals:
            # The literal must stand alone: not a prefix of a longer number.
            found = re.compile(re.escape(lit) + r"(?![0-9])").search(body, pos)
            if not found:
                print(f"{test_file}: {name} does not pin {lit} (after what came before it)")
                failed = True
                break
            pos = found.end()
    if failed:
        sys.exit(1)
    print(f"{test_file}: every pinned random-init value matches")


def main():
    self_check()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        check(sys.argv[2])
        return
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    for name, literals in pinned():
        print(name + ":", " ".join(literals))


if __name__ == "__main__":
    main()
