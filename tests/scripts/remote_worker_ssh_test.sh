#!/bin/bash
# tests/scripts/remote_worker_ssh_test.sh — runs through a real ssh to a worker
# at its far end (runtime/pipeline/remote.hpp, docs/remote-worker.md).
#
# Starts its own sshd on 127.0.0.1 on a free port, with a throw-away host key
# and a throw-away user key that this test makes, then runs
# `cuda-workbook-cli run ... --backend cpu --worker "ssh ... cuda-workbook-worker --stdio"`
# and checks: the result is the local worker's, the run says where it ran, a
# kernel's printf comes back whole, an endless kernel times out at the far
# end's deadline, and killing the local ssh ends the far end's worker and all
# it started. sshd is killed by its pid at the end.
#
# Usage: remote_worker_ssh_test.sh CLI WORKER SOURCE_DIR
# Exit 77 (skipped, with the reason) when not root or without sshd/ssh.
set -u
CLI=$1
WORKER=$2
SRC=$3

skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*"; FAILED=1; }
FAILED=0

[ "$(id -u)" = 0 ] || skip "needs root: sshd must log in as a user, and this test logs in as root"
SSHD=/usr/sbin/sshd
[ -x "$SSHD" ] || skip "no $SSHD (apt-get install openssh-server)"
command -v ssh >/dev/null || skip "no ssh (apt-get install openssh-client)"
command -v ssh-keygen >/dev/null || skip "no ssh-keygen (apt-get install openssh-client)"
[ -d /run/sshd ] || mkdir -p -m 0755 /run/sshd  # sshd's privilege-separation folder

T=$(mktemp -d /tmp/wb-ssh-test.XXXXXX)
SSHD_PID=
cleanup() {
    if [ -n "$SSHD_PID" ]; then kill "$SSHD_PID" 2>/dev/null; wait "$SSHD_PID" 2>/dev/null; fi
    rm -rf "$T"
}
trap cleanup EXIT

ssh-keygen -q -t ed25519 -N '' -f "$T/host_key" || skip "ssh-keygen could not make a host key"
ssh-keygen -q -t ed25519 -N '' -f "$T/user_key" || skip "ssh-keygen could not make a user key"
cp "$T/user_key.pub" "$T/authorized_keys"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$T/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $T/host_key
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized_keys
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
EOF
"$SSHD" -D -f "$T/sshd_config" -E "$T/sshd.log" &
SSHD_PID=$!

# The far end's cache is the test's, and a mark in its environment finds what it started.
MARK="WB_SSH_TEST_MARK=$$"
SSH="ssh -p $PORT -i $T/user_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR root@127.0.0.1"
REMOTE="env $MARK XDG_CACHE_HOME=$T/remote-cache WB_DISABLE_CUDA_DRIVER=1 $WORKER --stdio"
for _ in $(seq 1 50); do
    $SSH true 2>/dev/null && break
    sleep 0.2
done
$SSH true || { cat "$T/sshd.log"; skip "sshd on 127.0.0.1:$PORT did not let the test key in (log above)"; }

cd "$SRC" || exit 1
export XDG_CACHE_HOME="$T/local-cache" WB_DISABLE_CUDA_DRIVER=1

# 1. The same check line as the local worker's, and where it ran.
local_out=$("$CLI" run lessons/01_vector_add.json --step 1 --case ragged --backend cpu --solution 2>&1)
remote_out=$("$CLI" run lessons/01_vector_add.json --step 1 --case ragged --backend cpu --solution --worker "$SSH $REMOTE" 2>&1)
rc=$?
echo "$remote_out"
[ $rc = 0 ] || fail "the run through ssh exited $rc"
[ "$(grep '^check' <<<"$local_out")" = "$(grep '^check' <<<"$remote_out")" ] || fail "the check lines differ from the local worker's: $(grep '^check' <<<"$local_out")"
grep -q "^where   on $(hostname), through the worker command" <<<"$remote_out" || fail "the run does not say it ran on $(hostname)"
grep -q "^result  passed" <<<"$remote_out" || fail "the solution did not pass through ssh"

# 2. device names the far end's machine.
dev_out=$("$CLI" device --worker "$SSH $REMOTE" 2>&1)
echo "$dev_out"
grep -q "$(hostname)" <<<"$dev_out" || fail "device --worker does not name $(hostname)"

# 3. 2000 lines of printf (each validation run's) come back whole, outside the frames.
cat > "$T/printing.cu" <<'EOF'
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { c[i] = a[i] + b[i]; printf("WBW1 printed line %04d\n", i); }
}
EOF
print_args=(run lessons/01_vector_add.json --case ragged --param N=2000 --no-timing --backend cpu --source "$T/printing.cu" --trust)
print_local=$("$CLI" "${print_args[@]}" 2>&1)
print_out=$("$CLI" "${print_args[@]}" --worker "$SSH $REMOTE" 2>&1)
# Each validation run prints them: the local worker's count is the one to match.
want=$(grep -c "WBW1 printed line" <<<"$print_local")
lines=$(grep -c "WBW1 printed line" <<<"$print_out")
[ "$want" -ge 2000 ] || fail "the local worker gave back $want printed lines, not 2000 or more"
[ "$lines" = "$want" ] || fail "$lines of $want printed lines came back through ssh"
# Blocks run on several cores, in another order each validation run: the lines are compared as sets.
[ "$(grep "WBW1 printed line" <<<"$print_out" | sort)" = "$(grep "WBW1 printed line" <<<"$print_local" | sort)" ] \
    || fail "the printed lines through ssh differ from the local worker's"
grep -v "WBW1 printed line" <<<"$print_out" | grep -q "WBW1" && fail "a printed line came back broken (a frame's magic inside it?)"
grep -q "^result  passed" <<<"$print_out" || fail "the printing kernel did not pass: $(grep '^result' <<<"$print_out")"

# 4. An endless kernel: the far end's own deadline ends it.
cat > "$T/endless.cu" <<'EOF'
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{ volatile int spin = 1; while (spin) {} }
EOF
start=$(date +%s)
endless_out=$("$CLI" run lessons/01_vector_add.json --case small --timeout 4 --backend cpu --source "$T/endless.cu" --trust --worker "$SSH $REMOTE" 2>&1)
took=$(( $(date +%s) - start ))
grep -q "^result  timed-out: timed out after 4 s while running kernel 'vector_add' on the CPU emulator" <<<"$endless_out" \
    || fail "the endless kernel did not time out at the far end: $(grep '^result' <<<"$endless_out")"
[ "$took" -lt 20 ] || fail "the endless run took $took s"

# 5. Killing the local ssh (as Stop does) ends the far end: ssh closes its
#    stdin, and it ends with everything it started.
"$CLI" run lessons/01_vector_add.json --case small --timeout 120 --backend cpu --source "$T/endless.cu" --trust \
    --worker "$SSH $REMOTE" > "$T/killed.out" 2>&1 &
cli_pid=$!
marked() { grep -lz "$MARK" /proc/[0-9]*/environ 2>/dev/null | wc -l; }
for _ in $(seq 1 100); do
    [ "$(marked)" -ge 3 ] && break  # the far end, its worker, its builder
    sleep 0.1
done
sleep 2  # into the kernel
ssh_pid=$(pgrep -P "$cli_pid" -x ssh | head -1)
if [ -z "$ssh_pid" ]; then
    fail "no ssh under the CLI (pid $cli_pid)"
else
    kill -KILL "$ssh_pid"
fi
wait "$cli_pid"
cat "$T/killed.out"
grep -q "^result  crashed" "$T/killed.out" || fail "a killed ssh is not reported as the worker command ending"
left=0
for _ in $(seq 1 100); do
    left=$(marked)
    [ "$left" = 0 ] && break
    sleep 0.1
done
[ "$left" = 0 ] || fail "$left processes of the far end outlived its ssh: $(grep -lz "$MARK" /proc/[0-9]*/environ 2>/dev/null | tr '\n' ' ')"

[ $FAILED = 0 ] && echo "PASSED: runs through ssh to 127.0.0.1:$PORT"
exit $FAILED
