#!/usr/bin/env python3
# A worker that answers the first request with the frame in $WB_CANNED_FRAME
# (a file the test wrote with write_frame), after printing $WB_CANNED_OUTPUT
# bytes to its stdout, as a kernel's printf would, then waits to be replaced:
# for what the supervisor does with a result, such as the hint after a lost
# context, and the output printed just before the answer.
import os, time
with open(os.environ["WB_CANNED_FRAME"], "rb") as f:
    frame = f.read()
printed = int(os.environ.get("WB_CANNED_OUTPUT", "0"))
line = b"printed by the kernel, before the answer\n"
out = (line * (printed // len(line) + 1))[:printed]
while out:
    out = out[os.write(1, out):]
os.write(4, frame)
time.sleep(600)
