#!/usr/bin/env python3
# A broken worker: it answers every request with a frame header that announces
# a 16 GiB blob, then hangs. The supervisor must call that a protocol error at
# once, without allocating for it, and kill this process before waiting for it.
import os, struct, time
os.write(4, b"WBW1" + struct.pack("<IQQ", 2, 2, 16 << 30))
time.sleep(600)
