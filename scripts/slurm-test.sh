#!/usr/bin/env bash
# slurm-test.sh: runs a sweep's shards as a Slurm job array on a throwaway
# single-node cluster, resubmits the last shard alone (--array=N, as a
# user reruns a failed task), and checks that `nicsim merge` of the shards
# gives the results.csv of a single `nicsim sweep -j1` run (sim.wall_s
# excepted).
#
#   scripts/slurm-test.sh [NICSIM [SCENARIO [SHARDS]]]
#
# NICSIM defaults to build/nicsim, SCENARIO to
# tests/cli/data/sweep-spec.yaml (8 short points), SHARDS to 3.
#
# Everything lives in a private temporary directory: a fresh munge key,
# munged on its own socket, and a one-node slurm.conf for this host
# (slurmctld and slurmd on 127.0.0.1, ports picked free, no accounting, no
# cgroups, no systemd). The daemons run as root in the foreground of
# background jobs of this script and are stopped, and the directory removed,
# on every exit. Bounded: about 120 s in all (NICSIM_SLURM_TIMEOUT).
#
# Exit status: 0 the merged results match, 1 they do not (or Slurm failed),
# 77 skipped (Slurm or munge not installed, or not root). Set
# NICSIM_SLURM_KEEP=1 to keep the directory (daemon and job logs).
# The ctest test SweepSlurm.ShardsThroughAJobArray (cmake
# -DNICSIM_SLURM_TESTS=ON, label slurm) runs this; see docs/sweeps.md.
# shellcheck disable=SC2317 # cleanup and its helpers run from traps
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
nicsim=${1:-$here/build/nicsim}
scenario=${2:-$here/tests/cli/data/sweep-spec.yaml}
shards=${3:-3}
budget=${NICSIM_SLURM_TIMEOUT:-120}

say() { printf 'slurm-test: %s\n' "$*" >&2; }
skip() { say "SKIPPED: $*"; exit 77; }

PATH=$PATH:/usr/sbin:/sbin # the daemons, for a user whose PATH lacks sbin
missing=()
for p in munged munge unmunge slurmctld slurmd sbatch sinfo squeue scancel scontrol; do
  command -v "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  skip "not installed: ${missing[*]} (Debian: apt-get install --no-install-recommends slurm-wlm munge)"
fi
[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd and munged run as root here)"
[ -x "$nicsim" ] || { say "no nicsim binary at $nicsim"; exit 1; }
[ -r "$scenario" ] || { say "no scenario at $scenario"; exit 1; }
nicsim=$(realpath "$nicsim") scenario=$(realpath "$scenario") # the tasks run elsewhere

# Nothing of an enclosing Slurm job or the host's cluster may leak in.
while IFS='=' read -r name _; do
  case $name in SLURM_* | SBATCH_* | SALLOC_* | SRUN_* | SQUEUE_* | SINFO_*) unset "$name" ;; esac
done < <(env)

start=$SECONDS
left() { echo $((budget - (SECONDS - start))); }
# Seconds for a step that must leave $1 s for the rest (at least 1: timeout 0 waits forever).
lim() { local t=$(($(left) - ${1:-0})); echo $((t > 0 ? t : 1)); }

tmp=$(mktemp -d /tmp/nicsim-slurm.XXXXXX) || exit 1
chmod 0700 "$tmp"
munged_pid='' ctld_pid='' slurmd_pid='' sbatch_pid='' jobid='' status=1

show_logs() {
  for f in "$tmp"/log/*.log "$tmp"/work/job-*.out; do
    [ -s "$f" ] || continue
    say "---- tail of $f"
    tail -n 25 "$f" >&2
  done
}

# Waits up to $2 seconds for process $1 to exit.
wait_gone() {
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
  return 1
}

cleanup() {
  trap - EXIT INT TERM HUP
  if [ -n "$jobid" ] && [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
    # Unfinished tasks: cancel them so that no slurmstepd outlives slurmd.
    if [ -n "$(timeout 5 squeue -h -j "$jobid" -o %i 2>/dev/null)" ]; then
      timeout 5 scancel "$jobid" 2>/dev/null
      for _ in $(seq 50); do
        [ -z "$(timeout 5 squeue -h -j "$jobid" -o %i 2>/dev/null)" ] && break
        sleep 0.2
      done
    fi
  fi
  local pid
  for pid in $sbatch_pid $slurmd_pid $ctld_pid $munged_pid; do
    kill -TERM "$pid" 2>/dev/null && { wait_gone "$pid" 10 || kill -KILL "$pid" 2>/dev/null; }
    wait "$pid" 2>/dev/null
  done
  [ "$status" -eq 0 ] || show_logs
  if [ "${NICSIM_SLURM_KEEP:-0}" = 1 ]; then
    say "kept $tmp"
  else
    rm -rf "$tmp"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'say "interrupted"; status=1; exit 1' INT TERM HUP

fail() { say "FAILED: $*"; status=1; exit 1; }

mkdir -p "$tmp"/{munge,log,state,spool,run,work}
chmod 0700 "$tmp"/munge

# --- munge: a fresh key, its own socket, pid, seed and log files -------------
key=$tmp/munge/munge.key
sock=$tmp/run/munge.socket # a directory munged finds accessible: 0755
dd if=/dev/urandom of="$key" bs=1024 count=1 status=none || fail "cannot write a munge key"
chmod 0400 "$key"
munged -F --force --key-file="$key" --socket="$sock" \
  --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" \
  --log-file="$tmp/log/munged.log" >>"$tmp/log/munged.log" 2>&1 &
munged_pid=$!
for _ in $(seq 100); do
  [ -S "$sock" ] && break
  kill -0 "$munged_pid" 2>/dev/null || break
  sleep 0.1
done
munge -n -S "$sock" 2>>"$tmp/log/munged.log" | unmunge -S "$sock" >/dev/null 2>>"$tmp/log/munged.log" \
  || fail "munged does not work (see munged.log)"

# --- slurm.conf: one node, this host, on 127.0.0.1 ---------------------------
port_free() { ! ss -Htln "sport = :$1" 2>/dev/null | grep -q .; }
port=''
for _ in $(seq 50); do
  p=$((20000 + RANDOM % 30000))
  if port_free "$p" && port_free $((p + 1)); then port=$p; break; fi
done
[ -n "$port" ] || fail "no two free TCP ports found"
host=$(hostname -s 2>/dev/null || hostname)
cpus=$(nproc)
conf=$tmp/slurm.conf
cat >"$conf" <<EOF
# Throwaway single-node cluster of scripts/slurm-test.sh.
ClusterName=nicsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=10 State=UP
EOF
: >"$tmp/plugstack.conf"
export SLURM_CONF=$conf

slurmctld -D -c -f "$conf" >>"$tmp/log/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -f "$conf" >>"$tmp/log/slurmd.out" 2>&1 &
slurmd_pid=$!

# --- wait for the node to be idle ---------------------------------------------
state=''
while [ "$(left)" -gt 60 ]; do
  kill -0 "$ctld_pid" 2>/dev/null || fail "slurmctld exited (see slurmctld.log)"
  kill -0 "$slurmd_pid" 2>/dev/null || fail "slurmd exited (see slurmd.log)"
  state=$(timeout 5 sinfo -h -n "$host" -o %T 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || fail "node $host not idle after $((SECONDS - start)) s (state '${state:-none}')"
say "cluster up: node $host idle, $cpus CPUs, ports $port-$((port + 1)) on 127.0.0.1 ($((SECONDS - start)) s)"

# --- the shards as a job array, then merge --------------------------------------
work=$tmp/work
cat >"$work/sweep.sbatch" <<EOF
#!/bin/bash
# One shard of the sweep per array task (as docs/sweeps.md): the number of
# shards is fixed, not this submission's task count.
set -euo pipefail
SHARDS=$shards
'$nicsim' sweep '$scenario' -q --resume \\
  --shard "\${SLURM_ARRAY_TASK_ID}/\${SHARDS}" \\
  -j "\${SLURM_CPUS_PER_TASK:-1}" -o "$work/s\${SLURM_ARRAY_TASK_ID}"
EOF
# Submits the array tasks $1 (an --array range: 1-3, or 2) and waits.
# --wait: sbatch returns when every task has ended, with the highest exit
# status of the tasks. It prints the job id first (kept for the cleanup).
submit() {
  jobid=''
  timeout "$(lim 15)" sbatch --wait --parsable --job-name=nicsim-sweep \
    --array="$1" --cpus-per-task=1 --time=2 --chdir="$work" \
    --output="$work/job-%A_%a.out" "$work/sweep.sbatch" >"$work/sbatch.out" 2>"$work/sbatch.err" &
  sbatch_pid=$!
  for _ in $(seq 100); do
    jobid=$(head -n 1 "$work/sbatch.out" 2>/dev/null)
    jobid=${jobid%%;*}
    [ -n "$jobid" ] && break
    kill -0 "$sbatch_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$jobid" ] && say "submitted job array $jobid, tasks $1 ($((SECONDS - start)) s)"
  wait "$sbatch_pid"
  rc=$?
  [ -n "$jobid" ] || fail "sbatch: $(cat "$work/sbatch.err")"
  [ "$rc" -ne 124 ] || fail "job array $jobid not finished after $((SECONDS - start)) s"
  [ "$rc" -eq 0 ] || fail "job array $jobid: sbatch --wait exited $rc: $(cat "$work/sbatch.err")"
  say "job array $jobid done ($((SECONDS - start)) s)"
}
submit "1-$shards"
for k in $(seq "$shards"); do
  [ -f "$work/s$k/sweep.json" ] || fail "array task $k left no $work/s$k/sweep.json"
done
# A resubmission of one shard alone (its task count is 1): it must still run
# shard $shards of $shards, as docs/sweeps.md says.
rm -rf "$work/s$shards"
submit "$shards"
[ -f "$work/s$shards/sweep.json" ] || fail "the resubmitted task $shards left no sweep.json"

dirs=()
for k in $(seq "$shards"); do dirs+=("$work/s$k"); done
timeout "$(lim)" "$nicsim" merge "${dirs[@]}" -q -o "$work/all" >"$work/merge.out" 2>&1 \
  || fail "nicsim merge: $(cat "$work/merge.out")"
timeout "$(lim)" "$nicsim" sweep "$scenario" -j1 -q -o "$work/full" >"$work/full.out" 2>&1 \
  || fail "nicsim sweep -j1: $(cat "$work/full.out")"

# results.csv without sim.wall_s (its fields hold no quotes or commas).
without_wall() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "sim.wall_s") c = i
                     if (!c) { print "no sim.wall_s column" > "/dev/stderr"; exit 1 } }
           { out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out $i ","; print out }' "$1"
}
without_wall "$work/full/results.csv" >"$work/full.csv" || fail "reading full/results.csv"
without_wall "$work/all/results.csv" >"$work/all.csv" || fail "reading all/results.csv"
rows=$(($(wc -l <"$work/full.csv") - 1))
[ "$rows" -ge 1 ] || fail "the full run has no rows"
if ! diff -u "$work/full.csv" "$work/all.csv" >"$work/csv.diff"; then
  say "FAILED: merged results.csv (+) differs from a single run's (-), sim.wall_s aside:"
  cat "$work/csv.diff" >&2
  status=1
  exit 1
fi
say "PASSED: $shards array tasks merged equal a single run ($rows points, $((SECONDS - start)) s)"
status=0
exit 0
