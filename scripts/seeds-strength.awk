# seeds-strength.awk: the steps of scripts/seeds-strength.sh (docs/seeds.md,
# "Strength"), with seeds-lib.awk. -v step=
#   keys   nicsim config's output of one point -> "seed label key value literal mark"
#          for each numeric E or C value its platform file gives it (-v seed, label, marks)
#   jobs   keys.tsv -> the runs at sign x 10 % (-v sign=1|-1, runs=DIR)
#   pick   keys.tsv -> the -10 % runs of the nkeys keys that move each comparison most
#   json   keys.tsv -> the comparisons with their strength (-v out, runs, nominal, lines),
#          and the doc's strength rows into stsv
# POSIX awk.

# bump(v, lit, s): v moved by s x 10 %: a literal without . or e is an
# integer (to the nearest, by at least 1); "" when v is 0 or would change sign.
function bump(v, lit, s,   nv) {
  v += 0
  if (v == 0) return ""
  if (lit ~ /[.eE]/) return sprintf("%.6g", v * (1 + 0.1 * s))
  nv = v * (1 + 0.1 * s); nv = nv < 0 ? -int(-nv + 0.5) : int(nv + 0.5)
  if (nv == v) nv = v + s
  if (nv == 0 || (nv < 0) != (v < 0)) return ""
  return sprintf("%d", nv)
}
# jstr(s): s as a JSON string.
function jstr(s) {
  gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); gsub(/\n/, "\\n", s)
  gsub(/[\001-\037\177]/, "?", s)
  return "\"" s "\""
}
# jnum(s): a number, or null.
function jnum(s) { return isnum(s) ? s + 0 : "null" }
# nominals(): the nominal comparisons (validation.tsv) into nc, by index.
function nominals(   line, f, n) {
  while ((getline line < nominal) > 0) {
    if (++n == 1) continue
    split(line, f, "\t")
    nc++
    for (i = 1; i <= 18; i++) cmp[nc, i] = f[i]
    cid[f[1] SUBSEP f[2] SUBSEP f[4]] = nc
  }
  close(nominal)
}
# rows(file, tag): one run directory's verdicts into rv[tag, comparison, column].
function rows(file, tag,   line, f, c) {
  while ((getline line < file) > 0) {
    split(line, f, "\t")
    c = cid[f[1] SUBSEP f[2] SUBSEP f[4]]
    if (c == "" || f[16] == "MISSING") continue
    ran[tag, c] = 1
    rv[tag, c, 10] = f[10]; rv[tag, c, 11] = f[11]; rv[tag, c, 12] = f[12]; rv[tag, c, 16] = f[16]
  }
  close(file)
}
# bottlenecks(dir, tag): each point's bottleneck, sim.events and wire
# utilisations in DIR/<seed>/results.csv.
function bottlenecks(dir, tag, seed,   file, ln, h, nh, f, i, bcol, ecol, lr, m) {
  file = dir "/" seed "/results.csv"
  while ((getline ln < file) > 0) {
    csvsplit(ln, f)
    if (f[1] == "label") {
      nh = csvsplit(ln, h); bcol = 0; ecol = 0
      for (i = 1; i <= nh; i++) { if (h[i] == "bottleneck") bcol = i; if (h[i] == "sim.events") ecol = i }
      continue
    }
    if (bcol) bn[tag, seed, f[1]] = f[bcol]
    if (ecol) ev[tag, seed, f[1]] = f[ecol]
    # the wires' utilisation (docs/analysis.md): frames with preamble and gap over the line rate
    lr = lrate[seed, f[1]]
    for (i = 1; i <= nh; i++) m[h[i]] = f[i]
    if (lr + 0 > 0) {
      wtx[tag, seed, f[1]] = (m["tx.gbps"] + m["tx.mpps"] * 0.16) / lr
      wrx[tag, seed, f[1]] = (m["rx.gbps"] + m["rx.mpps"] * 0.16) / lr
    }
    delete m
  }
  close(file)
}
# sat(tag, c): the resource saturated at both of comparison c's points in run
# tag: its metric's wire (a tx or rx throughput at >= 95 %), else the same
# bottleneck at both, else "".
function sat(tag, c,   seed, bl, al, w) {
  seed = cmp[c, 1]; bl = cmp[c, 2]; al = cmp[c, 3]
  if (cmp[c, 4] !~ /gbps|mpps/) return ""
  if (cmp[c, 4] ~ /^tx\./ && wtx[tag, seed, bl] >= 0.95 && wtx[tag, seed, al] >= 0.95) return "wire.tx"
  if (cmp[c, 4] ~ /^rx\./ && wrx[tag, seed, bl] >= 0.95 && wrx[tag, seed, al] >= 0.95) return "wire.rx"
  w = bn[tag, seed, bl]
  return (w != "" && w != "none" && w == bn[tag, seed, al]) ? w : ""
}
# sens(tag, c): how far the run moved comparison c's scored change (-1: not at all).
function sens(tag, c,   a) {
  if (rv[tag, c, 10] == cmp[c, 10] && rv[tag, c, 11] == cmp[c, 11]) return -1
  if (!isnum(rv[tag, c, 12]) || !isnum(cmp[c, 12])) return 1e300
  a = rv[tag, c, 12] - cmp[c, 12]
  return a < 0 ? -a : a
}

BEGIN {
  if (step == "keys")
    while ((getline l < marks) > 0) {
      split(l, f, "\t")
      if (f[2] == "E" || f[2] == "C") { mk[f[1]] = f[2]; lit[f[1]] = f[3] }
    }
}
step == "keys" {
  if ($0 ~ /^[a-z_0-9]+:$/) { sec = substr($0, 1, length($0) - 1); next }
  if ($0 ~ /^  [a-z_0-9]+ / && $0 ~ / \(platform\)$/) {
    k = sec "." $1
    if ((k in mk) && isnum($2)) printf "%s\t%s\t%s\t%s\t%s\t%s\n", seed, label, k, $2, lit[k], mk[k]
  }
  next
}
step == "jobs" {
  nv = bump($4, $5, sign)
  if (nv != "") printf "%s/%s@%s\t%s\t%s\t%s=%s\n", runs, $3, (sign > 0 ? "p" : "m"), $1, $2, $3, nv
  next
}
{ kv[$1 SUBSEP $2 SUBSEP $3] = $4; kl[$1 SUBSEP $2 SUBSEP $3] = $5; km[$3] = $6; if (!($3 in kn)) { kn[$3] = ++nk; kname[nk] = $3 } }
END {
  if (step != "pick" && step != "json") exit 0
  nominals()
  for (k = 1; k <= nk; k++) {
    rows(runs "/" kname[k] "@p/rows.tsv", kname[k] "@p")
    rows(runs "/" kname[k] "@m/rows.tsv", kname[k] "@m")
  }
  if (step == "pick") {
    for (c = 1; c <= nc; c++) {
      # the nkeys keys with the largest move, each at -10 % on both points
      for (k = 1; k <= nk; k++) { s[k] = ran[kname[k] "@p", c] ? sens(kname[k] "@p", c) : -1; took[k] = 0 }
      for (j = 1; j <= nkeys; j++) {
        best = 0
        for (k = 1; k <= nk; k++) if (!took[k] && s[k] >= 0 && (best == 0 || s[k] > s[best])) best = k
        if (best == 0) break
        took[best] = 1
        for (p = 2; p <= 3; p++) {
          key = cmp[c, 1] SUBSEP cmp[c, p] SUBSEP kname[best]
          nv = bump(kv[key], kl[key], -1)
          line = sprintf("%s/%s@m\t%s\t%s\t%s=%s", runs, kname[best], cmp[c, 1], cmp[c, p], kname[best], nv)
          if (nv != "" && !(line in printed)) { printed[line] = 1; print line }
        }
      }
    }
    exit 0
  }
  # json
  while ((getline ln < lines) > 0) { split(ln, f, "\t"); lrate[f[1], f[2]] = f[3] }
  for (c = 1; c <= nc; c++) if (!((cmp[c, 1]) in bseen)) { bseen[cmp[c, 1]] = 1; bottlenecks(out, "nominal", cmp[c, 1]) }
  for (k = 1; k <= nk; k++) for (sg = 0; sg < 2; sg++) {
    tag = kname[k] (sg ? "@m" : "@p")
    for (c = 1; c <= nc; c++) if (ran[tag, c] && !((tag SUBSEP cmp[c, 1]) in bdone)) { bdone[tag SUBSEP cmp[c, 1]] = 1; bottlenecks(runs "/" tag, tag, cmp[c, 1]) }
  }
  printf "{\n  \"comparisons\": ["
  for (c = 1; c <= nc; c++) {
    seed = cmp[c, 1]; bl = cmp[c, 2]; al = cmp[c, 3]; metric = cmp[c, 4]; verdict = cmp[c, 16]
    b0 = bn["nominal", seed, bl]; a0 = bn["nominal", seed, al]
    res = sat("nominal", c); ceiling = res != ""
    taut = cmp[c, 10] == cmp[c, 11] && ev["nominal", seed, bl] != "" && ev["nominal", seed, bl] == ev["nominal", seed, al]
    nflip = 0; nplus = 0; nminus = 0; flips = ""; fl = ""
    for (k = 1; k <= nk; k++) for (sg = 0; sg < 2; sg++) {
      tag = kname[k] (sg ? "@m" : "@p")
      if (!ran[tag, c]) continue
      if (sg) nminus++; else nplus++
      if (sat(tag, c) != res) ceiling = 0
      if (rv[tag, c, 16] != verdict) {
        key = seed SUBSEP bl SUBSEP kname[k]
        fl = fl (fl == "" ? "" : "; ") sprintf("%s = %s (%s, %s) gives %s", kname[k], bump(kv[key], kl[key], sg ? -1 : 1),
          km[kname[k]], sg ? "-10 %" : "+10 %", rv[tag, c, 16])
        flips = flips (nflip++ ? ", " : "") sprintf("{\"key\": %s, \"mark\": %s, \"value\": %s, \"nominal\": %s, \"move\": %s, \"verdict\": %s}",
          jstr(kname[k]), jstr(km[kname[k]]), bump(kv[key], kl[key], sg ? -1 : 1), kv[key] + 0, jstr(sg ? "-10%" : "+10%"), jstr(rv[tag, c, 16]))
      }
    }
    if (verdict == "MISSING") strength = "-"
    else if (taut) strength = "tautology"
    else if (ceiling) strength = "ceiling"
    else if (nflip) strength = "knife-edge"
    else strength = "strong"
    why = ""
    if (strength == "ceiling") why = res " saturated at both points, at every value tried"
    else if (strength == "tautology") why = "the figure and the run's events are identical at both points"
    else if (strength == "knife-edge") why = fl
    else if (strength == "strong") why = sprintf("no single E or C value at +-10 %% flips it (%d keys at +10 %%, %d at -10 %%)", nplus, nminus)
    printf "%s\t%s -> %s\t%s\t%s\t%s\t%s\n", seed, bl, al, metric, verdict, strength, why > stsv
    printf "%s\n    {\"seed\": %s, \"before\": %s, \"after\": %s, \"metric\": %s, \"kind\": %s,\n", (c > 1 ? "," : ""), jstr(seed), jstr(bl), jstr(al), jstr(metric), jstr(cmp[c, 5])
    printf "     \"published\": {\"before\": %s, \"after\": %s}, \"nicsim\": {\"before\": %s, \"after\": %s},\n", jnum(cmp[c, 7]), jnum(cmp[c, 8]), jnum(cmp[c, 10]), jnum(cmp[c, 11])
    printf "     \"verdict\": %s, \"note\": %s, \"weak\": %s, \"strength\": %s,\n", jstr(verdict), jstr(cmp[c, 17]), jstr(cmp[c, 18]), jstr(strength)
    printf "     \"saturated\": %s, \"bottleneck\": {\"before\": %s, \"after\": %s}, \"keys_tried\": {\"plus\": %d, \"minus\": %d},\n", res == "" ? "null" : jstr(res), jstr(b0), jstr(a0), nplus, nminus
    printf "     \"flips\": [%s]}", flips
  }
  printf "\n  ]\n}\n"
}
