#!/usr/bin/env python3
# A broken worker: it writes garbage, then blocks writing more into a pipe
# nobody drains. The supervisor must see the garbled frame, kill it, and
# return; it must not wait for a process that will never exit.
import os
os.write(4, b"this is not a frame header at all")
while True:
    os.write(4, b"x" * 65536)
