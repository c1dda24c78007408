#!/usr/bin/env python3
# A broken worker: a well-formed frame whose JSON is not a result: its status is a
# number where the form has a name (result_json.hpp), and every other field is missing.
# The supervisor must turn that into an error result, not an exception.
import os, struct, time, json
body = json.dumps({"status": 0}).encode()
os.write(4, b"WBW1" + struct.pack("<IQQ", 2, len(body), 0) + body)
time.sleep(600)
