# seeds-lib.awk: functions shared by scripts/seeds.sh's awk programs
# (seeds-compare.awk, seeds-strength.awk): numbers and results.csv files.
# POSIX awk.

# isnum(s): s is a plain decimal number.
function isnum(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
# csvsplit(line, f): splits one RFC 4180 CSV line into f[1..n], returns n.
function csvsplit(line, f,   n, i, c, q, cur) {
  n = 0; cur = ""; q = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (q) {
      if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ } else q = 0 }
      else cur = cur c
    } else if (c == "\"") q = 1
    else if (c == ",") { f[++n] = cur; cur = "" }
    else if (c != "\r") cur = cur c
  }
  f[++n] = cur
  return n
}
# load(seed): reads DIR/<seed>/results.csv into val[seed, label, column].
function load(seed,   file, line, nh, n, i, hdr, f, lab) {
  loaded[seed] = 1
  file = out "/" seed "/results.csv"
  if ((getline line < file) <= 0) return
  have[seed] = 1
  nh = csvsplit(line, hdr)
  lab = 0
  for (i = 1; i <= nh; i++) { col[seed SUBSEP hdr[i]] = 1; if (hdr[i] == "label") lab = i }
  while (lab && (getline line < file) > 0) {
    n = csvsplit(line, f)
    # results.csv files of single runs, concatenated: each brings its header
    if (f[lab] == "label") {
      nh = csvsplit(line, hdr)
      for (i = 1; i <= nh; i++) { col[seed SUBSEP hdr[i]] = 1; if (hdr[i] == "label") lab = i }
      continue
    }
    row[seed SUBSEP f[lab]] = 1
    for (i = 1; i <= nh && i <= n; i++) val[seed SUBSEP f[lab] SUBSEP hdr[i]] = f[i]
  }
  close(file)
}
