#!/usr/bin/env python3
"""The pinned random-init values in tests/unit/buffers_test.cpp, computed without the C++ code.

runtime/data/buffers.cpp fills "uniform" and "normal" buffers from
std::mt19937_64 seeded with the lesson's seed, through its own transforms:

  unit_open_high(d) = (d >> 11) * 2^-53          in [0, 1)
  unit_open_low(d)  = ((d >> 11) + 1) * 2^-53    in (0, 1]
  uniform float:    min + (max - min) * unit_open_high(draw), stored as the
                    buffer's type (f32: rounded to nearest float)
  uniform integer:  lo + floor(unit_open_high(draw) * (hi - lo + 1)), capped
                    at hi, with lo = ceil(min), hi = floor(max)
  normal:           Box-Muller on pairs of draws, u1 = unit_open_low,
                    u2 = unit_open_high, r = sqrt(-2 ln u1), t = 2 pi u2;
                    element i = mean + sd r cos t, element i+1 = mean + sd r sin t

MT19937-64 is implemented here from Matsumoto and Nishimura's reference
(mt19937-64.c, init_genrand64) and checked against the C++ standard's
required value: the 10000th output of a default-constructed std::mt19937_64
(seed 5489) is 9981545732273789042 ([rand.predef]).

  python3 tests/tools/buffer_init_values.py           prints the values
  python3 tests/tools/buffer_init_values.py --check tests/unit/buffers_test.cpp
                                                      fails unless the test pins exactly these
"""
import math
import re
import struct
import sys

MASK64 = (1 << 64) - 1


class MT19937_64:
    NN, MM = 312, 156
    MATRIX_A = 0xB5026F5AA96619E9
    UM, LM = 0xFFFFFFFF80000000, 0x7FFFFFFF

    def __init__(self, seed):
        self.mt = [0] * self.NN
        self.mt[0] = seed & MASK64
        for i in range(1, self.NN):
            prev = self.mt[i - 1]
            self.mt[i] = (6364136223846793005 * (prev ^ (prev >> 62)) + i) & MASK64
        self.mti = self.NN

    def _twist(self):
        mt, NN, MM = self.mt, self.NN, self.MM
        for i in range(NN):
            x = (mt[i] & self.UM) | (mt[(i + 1) % NN] & self.LM)
            xa = x >> 1
            if x & 1:
                xa ^= self.MATRIX_A
            mt[i] = mt[(i + MM) % NN] ^ xa
        self.mti = 0

    def __call__(self):
        if self.mti >= self.NN:
            self._twist()
        x = self.mt[self.mti]
        self.mti += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000
        x ^= (x << 37) & 0xFFF7EEE000000000
        x ^= x >> 43
        return x & MASK64


def unit_open_high(d):
    return float(d >> 11) * 2.0 ** -53


def unit_open_low(d):
    return float((d >> 11) + 1) * 2.0 ** -53


def as_f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def uniform_float(seed, lo, hi, n, f32):
    rng = MT19937_64(seed)
    out = [lo + (hi - lo) * unit_open_high(rng()) for _ in range(n)]
    return [as_f32(v) for v in out] if f32 else out


def uniform_int(seed, lo, hi, n):
    rng = MT19937_64(seed)
    lo, hi = math.ceil(lo), math.floor(hi)
    values = hi - lo + 1
    return [min(lo + math.floor(unit_open_high(rng()) * values), hi) for _ in range(n)]


def normal(seed, mean, sd, n):
    rng = MT19937_64(seed)
    out = []
    while len(out) < n:
        u1 = unit_open_low(rng())
        u2 = unit_open_high(rng())
        r = math.sqrt(-2.0 * math.log(u1))
        t = 2.0 * math.pi * u2
        out += [mean + sd * r * math.cos(t), mean + sd * r * math.sin(t)]
    return out[:n]


def self_check():
    rng = MT19937_64(5489)
    for _ in range(9999):
        rng()
    got = rng()
    if got != 9981545732273789042:
        sys.exit(f"MT19937-64 is wrong: 10000th output of seed 5489 is {got}, the standard says 9981545732273789042")


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
