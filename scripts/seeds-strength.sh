#!/bin/sh
# seeds-strength.sh: the runs behind scripts/seeds.sh --json (docs/seeds.md,
# "Strength"): every numeric E and C value of each compared point's platform
# at +10 %, the most sensitive also at -10 %, each comparison's verdict at
# each, and the JSON of the comparisons with their strength. Called by
# seeds.sh after its comparison of DIR:
#   seeds-strength.sh ROOT DIR NICSIM JOBS NKEYS PUBLISHED JSON
# POSIX sh and awk only.
set -eu
root=$1; out=$2; nicsim=$3; jobs=$4; nkeys=$5; published=$6; json=$7
sdir=$out/strength
lib=$root/scripts/seeds-lib.awk
sawk=$root/scripts/seeds-strength.awk
note() { echo "seeds.sh: $*" >&2; }
rm -rf "$sdir" && mkdir -p "$sdir/cfg" "$sdir/runs" || { note "cannot create $sdir"; exit 2; }

# 1. The compared points and the E and C keys of each (nicsim config: the
# value the point resolves to, where it comes from the platform file).
awk -F '\t' 'NR > 1 && $16 != "MISSING" { p[$1 "\t" $2] = 1; p[$1 "\t" $3] = 1 } END { for (k in p) print k }' \
  "$out/validation.tsv" | sort > "$sdir/points.tsv"
: > "$sdir/keys.tsv"
: > "$sdir/line.tsv"
i=0
while IFS='	' read -r seed label; do
  i=$((i + 1))
  cfg=$sdir/cfg/p$i.txt
  "$nicsim" config "$root/scenarios/seeds/$seed.yaml" --point "$label" > "$cfg" 2> "$cfg.err" < /dev/null ||
    { note "nicsim config $seed --point $label failed: $(head -c 300 "$cfg.err")"; exit 2; }
  plat=$(sed -n '1s/.*, platform \([A-Za-z0-9._-]*\)$/\1/p' "$cfg")
  if [ -z "$plat" ] || [ ! -r "$root/configs/platforms/$plat.yaml" ]; then
    note "$seed $label: no platform file, no keys tried"; continue
  fi
  awk -v seed="$seed" -v label="$label" '/^nic:$/ { n = 1 } n && $1 == "line_rate_gbps" { print seed "\t" label "\t" $2; exit }' \
    "$cfg" >> "$sdir/line.tsv"
  awk -f "$root/scripts/platform-marks.awk" "$root/configs/platforms/$plat.yaml" > "$sdir/cfg/p$i.marks"
  awk -v step=keys -v seed="$seed" -v label="$label" -v marks="$sdir/cfg/p$i.marks" -f "$lib" -f "$sawk" "$cfg" \
    >> "$sdir/keys.tsv"
done < "$sdir/points.tsv"

# run_jobs FILE: runs each line "DIR<tab>SEED<tab>LABEL<tab>KEY=VALUE" as one
# nicsim run into DIR/<seed>/<n>.csv, JOBS at a time; a failed run leaves
# its .err and no .csv (its comparisons are then MISSING at that value).
run_jobs() {
  n=0; k=0
  while IFS='	' read -r dir seed label assign; do
    k=$((k + 1))
    mkdir -p "$dir/$seed"
    ( "$nicsim" run "$root/scenarios/seeds/$seed.yaml" --point "$label" --set "$assign" --csv "$dir/$seed/r$k.csv" \
        > /dev/null 2> "$dir/$seed/r$k.err" < /dev/null || rm -f "$dir/$seed/r$k.csv" ) &
    n=$((n + 1))
    if [ "$n" -ge "$jobs" ]; then wait; n=0; fi
  done < "$1"
  wait
}

# judge LIST: each run directory of LIST gets results.csv (its runs'
# files, concatenated) and rows.tsv (seeds-compare.awk's verdicts there).
judge() {
  cut -f1 "$1" | sort -u | while read -r dir; do
    for sd in "$dir"/*/; do
      [ -d "$sd" ] || continue
      cat "$sd"r*.csv > "$sd/results.csv" 2> /dev/null || :
    done
    ss=$(cd "$dir" && ls -d */ 2> /dev/null | tr -d / | tr '\n' ' ')
    awk -F '\t' -v out="$dir" -v seeds=" $ss " -v tsv="$dir/rows.tsv" -v table=/dev/null \
        -v plat_file="$out/.platforms.tsv" -v seedc_file="$out/.seedc.tsv" -v mech_file=/dev/null \
        -f "$lib" -f "$root/scripts/seeds-compare.awk" "$out/.platforms.tsv" "$out/.seedc.tsv" "$published" \
        > /dev/null || { note "comparison in $dir failed"; exit 2; }
  done
}

# 2. Every key at +10 %.
awk -F '\t' -v step=jobs -v sign=1 -v runs="$sdir/runs" -f "$lib" -f "$sawk" "$sdir/keys.tsv" > "$sdir/plus.jobs"
note "strength: $(wc -l < "$sdir/plus.jobs" | tr -d ' ') runs at +10 % (-j $jobs)"
run_jobs "$sdir/plus.jobs"
judge "$sdir/plus.jobs"

# 3. The NKEYS keys that move each comparison most, at -10 %.
awk -F '\t' -v step=pick -v nkeys="$nkeys" -v runs="$sdir/runs" -v nominal="$out/validation.tsv" \
  -f "$lib" -f "$sawk" "$sdir/keys.tsv" > "$sdir/minus.jobs"
note "strength: $(wc -l < "$sdir/minus.jobs" | tr -d ' ') runs at -10 %"
if [ -s "$sdir/minus.jobs" ]; then run_jobs "$sdir/minus.jobs"; judge "$sdir/minus.jobs"; fi

# 4. The JSON.
awk -F '\t' -v step=json -v out="$out" -v runs="$sdir/runs" -v nominal="$out/validation.tsv" -v lines="$sdir/line.tsv" \
  -v stsv="$out/strength.tsv" \
  -f "$lib" -f "$sawk" "$sdir/keys.tsv" > "$json.new.$$" || { rm -f "$json.new.$$"; note "strength failed"; exit 2; }
mv "$json.new.$$" "$json"
note "strength in $json"
