# seeds-compare.awk: scripts/seeds.sh's comparison (docs/seeds.md, "The rule").
# awk -F '\t' -v out=DIR -v seeds=" SEED... " -v tsv=FILE -v table=FILE
#     -v plat_file=F -v seedc_file=F -v mech_file=F -f seeds-lib.awk -f seeds-compare.awk
#     F(platforms) F(seedc) PUBLISHED F(mechanisms)
# Loads DIR/<seed>/results.csv on demand; writes the validation rows (tsv),
# the cells of every table row (table: the comparisons, then the mechanism
# rows), the .dat files, and prints the aligned table. POSIX awk.

# fmtv(v): a value for people: 4 significant digits, k/M/G above 10^4.
function fmtv(v,   a) {
  if (v == "-" || v == "") return "-"
  v = v + 0
  a = v < 0 ? -v : v
  if (a >= 1e9) return sprintf("%.4gG", v / 1e9)
  if (a >= 1e6) return sprintf("%.4gM", v / 1e6)
  if (a >= 1e4) return sprintf("%.4gk", v / 1e3)
  return sprintf("%.4g", v)
}
# fmtr(r): an after/before ratio as "6.69x" or "1/2.30x".
function fmtr(r) { return r >= 1 ? sprintf("%.2fx", r) : (r > 0 ? sprintf("1/%.2fx", 1 / r) : sprintf("%.2fx", r)) }
# fmtp(c): a relative change as a signed percentage.
function fmtp(c) { return sprintf("%+.1f%%", 100 * c) }
# g(x): a number for the TSV and .dat files.
function g(x) { return (x == "-" || x == "") ? "-" : sprintf("%.6g", x) }
# cell(r, c, s): stores a table cell and widens its column.
function cell(r, c, s) { tab[r, c] = s; if (length(s) > w[c]) w[c] = length(s) }
# addweak(s): one more reason the comparison is weak.
function addweak(s) { weak = weak (weak == "" ? "" : "; ") s }
# missing(seed, bl, al, metric): why the figures cannot be read, or "".
function missing(seed, bl, al, metric) {
  if (!have[seed]) return "no " out "/" seed "/results.csv"
  if (!((seed SUBSEP bl) in row)) return "no point " bl
  if (!((seed SUBSEP al) in row)) return "no point " al
  if (!((seed SUBSEP metric) in col)) return "no column " metric
  if (!isnum(val[seed SUBSEP bl SUBSEP metric]) || !isnum(val[seed SUBSEP al SUBSEP metric])) return "no value of " metric
  return ""
}

FILENAME == plat_file { plat[$1 SUBSEP $2] = $3; next }
FILENAME == seedc_file { seedc[$1 SUBSEP $2] = seedc[$1 SUBSEP $2] (seedc[$1 SUBSEP $2] == "" ? "" : ", ") $3; next }
/^#/ || /^[ \t]*$/ { next }
FILENAME == mech_file {
  if (!mheader) { mheader = 1; next }
  if (index(seeds, " " $1 " ") == 0) next
  # seed before after metric per what note: a figure of the mechanism, not judged
  seed = $1; bl = $2; al = $3; metric = $4; per = $5
  if (!(seed in loaded)) load(seed)
  nb = "-"; na = "-"
  why = missing(seed, bl, al, metric)
  if (why == "" && per != "-") why = missing(seed, bl, al, per)
  if (why == "") {
    nb = val[seed SUBSEP bl SUBSEP metric]; na = val[seed SUBSEP al SUBSEP metric]
    if (per != "-") {
      db = val[seed SUBSEP bl SUBSEP per]; da = val[seed SUBSEP al SUBSEP per]
      nb = db + 0 ? nb / db : "-"; na = da + 0 ? na / da : "-"
    }
  }
  printf "mechanism\t%s\t%s -> %s\t%s\t%s\t%s -> %s\t%s\t%s\n", seed, bl, al, metric (per != "-" ? " / " per : ""),
    $6, fmtv(nb), fmtv(na), why != "" ? "MISSING (" why ")" : "-", $7 > table
  next
}
!header { header = 1; next }
index(seeds, " " $1 " ") == 0 { next }
{
  seed = $1; bl = $2; al = $3; metric = $4; pb = $5; pa = $6; kind = $7
  if (!(seed in loaded)) load(seed)
  rule = kind == "unchanged" ? "unchanged" : "relative"
  pchange = "-"; lo = "-"; hi = "-"; up = 1; pr = "-"; weak = ""
  if (pb != "-") {
    pr = pa / pb; up = pr > 1
    pratio = pr >= 1 ? pr : 1 / pr
    if (kind == "headline" && pratio >= 2) rule = "ratio"
    pchange = rule == "ratio" ? pratio : pr - 1
  }
  if (rule == "unchanged") { lo = -0.05; hi = 0.05 }
  else if (rule == "ratio") { lo = 0.75 * pratio; hi = 1.25 * pratio }
  else if (kind == "headline") {
    lo = 0.75 * pchange; hi = 1.25 * pchange
    if (lo > hi) { t = lo; lo = hi; hi = t }
  }

  # nicsim before/after
  nb = val[seed SUBSEP bl SUBSEP metric]; na = val[seed SUBSEP al SUBSEP metric]
  note = missing(seed, bl, al, metric)
  nr = "-"; nchange = "-"; off = "-"
  if (note != "") { verdict = "MISSING"; nb = (nb == "") ? "-" : nb; na = (na == "") ? "-" : na }
  else if (nb + 0 == 0 || (rule == "ratio" && na + 0 == 0)) {
    verdict = kind == "info" ? "INFO" : "MISS"; note = "nicsim " (nb + 0 == 0 ? "before" : "after") " is 0: no ratio"
  } else {
    nr = na / nb
    nchange = rule == "ratio" ? (up ? nr : 1 / nr) : nr - 1
    eps = 1e-9
    if (kind == "info") verdict = "INFO"
    else if (rule == "unchanged") {
      a = nchange < 0 ? -nchange : nchange
      verdict = a <= 0.05 + eps ? "PASS" : "MISS"
      if (verdict == "MISS") note = "changed by more than 5%"
      # the level too: within 25% of the board's figure at both points
      if (pb != "-") {
        lb = nb / pb - 1; la = na / pa - 1
        if (lb > 0.25 + eps || lb < -0.25 - eps || la > 0.25 + eps || la < -0.25 - eps)
          addweak(sprintf("level %s / %s off the board", fmtp(lb), fmtp(la)))
      } else addweak("no published figures: only nicsim's own change is checked")
    } else {
      wrong = rule == "ratio" ? (nchange < 1) : (nchange * pchange <= 0)
      if (wrong) { verdict = "MISS"; note = "wrong direction" }
      else if (nchange < lo - eps * (lo < 0 ? -lo : lo)) { verdict = "MISS"; note = (pchange < 0 && rule != "ratio") ? "change too large" : "change too small" }
      else if (nchange > hi + eps * (hi < 0 ? -hi : hi)) { verdict = "MISS"; note = (pchange < 0 && rule != "ratio") ? "change too small" : "change too large" }
      else verdict = "PASS"
    }
  }
  # off by: nicsim change / published change - 1 (in the rule of the row)
  if (nchange != "-" && pchange != "-" && rule != "unchanged" && pchange + 0 != 0) off = nchange / pchange - 1
  # values read off this seed's own figures on this platform
  sn = ""
  if (match($8, /seeds\/[0-9]+/)) sn = substr($8, RSTART + 6, RLENGTH - 6)
  p = plat[seed SUBSEP bl]
  if (sn != "" && ((p SUBSEP sn) in seedc)) addweak(seedc[p SUBSEP sn] " read off this seed (C)")

  # the TSV row
  printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", seed, bl, al, metric, kind, rule,
    pb, pa, g(pchange), nb, na, g(nchange), g(lo), g(hi), g(off), verdict, note, weak > tsv

  # the table row
  nrow++
  cell(nrow, 1, seed); cell(nrow, 2, bl " -> " al); cell(nrow, 3, metric)
  if (pb == "-") pc = "no figures"
  else pc = rule == "ratio" ? fmtr(pr) : fmtp(pr - 1)
  cell(nrow, 4, fmtv(pb) " -> " fmtv(pa) " (" pc ")")
  if (nr == "-") nc = "-"
  else nc = rule == "ratio" ? fmtr(nr) : fmtp(nr - 1)
  cell(nrow, 5, fmtv(nb) " -> " fmtv(na) " (" nc ")")
  cell(nrow, 6, off == "-" ? "-" : fmtp(off))
  vc = verdict (note != "" ? " (" note ")" : "") (weak != "" ? " weak: " weak : "")
  cell(nrow, 7, vc)
  count[verdict]++
  printf "comparison\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", seed, tab[nrow, 2], metric, tab[nrow, 4], tab[nrow, 5], tab[nrow, 6], vc > table

  # the plot data: after/before of each pair (before = 1) and the pass band
  dat = out "/" seed ".dat"
  if (!(seed in datopen)) {
    datopen[seed] = 1; ndat[seed] = 0
    print "# " seed ": one row per compared figure (plots/published.tsv), written by scripts/seeds.sh" > dat
    print "# i\tplatform\tmetric\tpublished_after_over_before\tnicsim_after_over_before\tband_low\tband_high\tverdict" > dat
  }
  pl = bl; sub(/^[^\/]*\//, "", pl)
  if (rule == "unchanged") { blo = 0.95; bhi = 1.05 }
  else if (rule == "ratio") { blo = up ? lo : 1 / hi; bhi = up ? hi : 1 / lo }
  else if (kind == "headline") { blo = 1 + lo; bhi = 1 + hi }
  else { blo = "-"; bhi = "-" }
  printf "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", ndat[seed]++, pl, metric, g(pr), g(nr), g(blo), g(bhi), verdict > dat
}
END {
  close(tsv); close(table)
  for (s in datopen) close(out "/" s ".dat")
  split("seed|points|metric|published before -> after (change)|nicsim before -> after (change)|off by|verdict", h, "|")
  for (c = 1; c <= 7; c++) if (length(h[c]) > w[c]) w[c] = length(h[c])
  for (c = 1; c <= 7; c++) printf "%-*s%s", w[c], h[c], c < 7 ? "  " : "\n"
  for (c = 1; c <= 7; c++) { printf "%s", substr("--------------------------------------------------------------------------------", 1, w[c]); printf "%s", c < 7 ? "  " : "\n" }
  for (r = 1; r <= nrow; r++)
    for (c = 1; c <= 7; c++) printf "%-*s%s", (c < 7 ? w[c] : 0), tab[r, c], c < 7 ? "  " : "\n"
  printf "\n%d PASS, %d MISS, %d INFO, %d MISSING\n", count["PASS"], count["MISS"], count["INFO"], count["MISSING"]
}
