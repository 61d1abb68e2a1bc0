# seeds-doc.awk: the generated tables of docs/validation.md (scripts/seeds.sh
# --write-doc, --check-doc; docs/seeds.md, "The doc's tables").
# awk -F '\t' -v mode=write|check -v doc=NAME -v seeds=" SEED... " -v newdoc=FILE [-v stsv=STRENGTH.tsv]
#     TABLE.tsv DOC
# A block runs from "<!-- seeds:table:NAME:BEGIN -->" to "<!-- seeds:table:NAME:END -->",
# each marker alone on its line. NAME is summary (every comparison), summary:count
# (the verdict counts), SEED (its comparisons), SEED:mechanism (its mechanism
# figures) or strength (each comparison's strength: only with stsv, else the
# block is kept as it is and not checked). write: the doc with every block's body regenerated goes to newdoc.
# check: every line of a block that differs is named on stderr, exit 1.
# Bad markers: file:line on stderr, exit 2. POSIX awk.

# md(s): s as Markdown text: HTML specials as entities, Markdown's own backslashed.
function md(s) {
  gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
  gsub(/[][\\`*_|]/, "\\\\&", s)
  return s
}
# arrows(s): " -> " as the doc writes it.
function arrows(s) { gsub(/ -> /, " \342\206\222 ", s); return s }
# code(s): s as a code span when it is a plain name, else as text.
function code(s) { return s ~ /^[A-Za-z0-9._\/ -]+$/ ? "`" s "`" : md(s) }
# txt(s): a cell of the table file as Markdown.
function txt(s) { return md(arrows(s)) }
# safe(s): s for a terminal: control characters as "?".
function safe(s) { gsub(/[\001-\037\177]/, "?", s); return s }
# bad(msg): a mistake in the doc's markers.
function bad(msg) { printf "%s:%d: %s\n", doc, FNR, msg > "/dev/stderr"; err = 1 }
# known(name): a block this run can write.
function known(name,   s) {
  if (name == "summary" || name == "summary:count" || name == "strength") return 1
  s = name; sub(/:mechanism$/, "", s)
  return index(seeds, " " s " ") > 0 && (s == name || name == s ":mechanism")
}
# body(name): the block's generated lines into out[1..n]; returns n.
function body(name,   n, i, s, one) {
  n = 0
  if (name == "summary:count") {
    out[++n] = sprintf("%d of %d comparisons pass (%d weak), %d miss, %d missing.", cnt["PASS"], ncomp, nweak, cnt["MISS"], cnt["MISSING"])
    return n
  }
  if (name == "strength") {
    out[++n] = "| Seed | Points | Metric | Verdict | Strength | Why |"
    out[++n] = "|---|---|---|---|---|---|"
    for (i = 1; i <= nstr; i++)
      out[++n] = "| " code(sseed[i]) " | " txt(spts[i]) " | " code(smetric[i]) " | " txt(sver[i]) " | **" txt(sstr[i]) "** | " txt(swhy[i]) " |"
    return n
  }
  if (name ~ /:mechanism$/) {
    s = name; sub(/:mechanism$/, "", s)
    out[++n] = "| Mechanism figure | Points | Metric | nicsim before \342\206\222 after | Note |"
    out[++n] = "|---|---|---|---|---|"
    for (i = 1; i <= nmech; i++) if (mseed[i] == s)
      out[++n] = "| " txt(mwhat[i]) " | " txt(mpts[i]) " | " code(mmetric[i]) " | " txt(mval[i]) (mmiss[i] != "-" ? " " txt(mmiss[i]) : "") " | " (mnote[i] == "-" ? "" : txt(mnote[i])) " |"
    return n
  }
  one = name != "summary"
  out[++n] = (one ? "" : "| Seed ") "| Points | Metric | Published before \342\206\222 after (change) | nicsim before \342\206\222 after (change) | Off by | Verdict |"
  out[++n] = (one ? "" : "|---") "|---|---|---|---|---|---|"
  for (i = 1; i <= ncomp; i++) if (!one || cseed[i] == name)
    out[++n] = (one ? "" : "| " code(cseed[i]) " ") "| " code(arrows(cpts[i])) " | " code(cmetric[i]) " | " txt(cpub[i]) " | " txt(cnic[i]) " | " txt(coff[i]) " | " txt(cver[i]) " |"
  return n
}
# cells(line, f): a table row's cells (split at unescaped |) into f[1..]; returns the count.
function cells(line, f,   n, i, c, cur, esc) {
  n = 0; cur = ""; esc = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (esc) { cur = cur "\\" c; esc = 0 }
    else if (c == "\\") esc = 1
    else if (c == "|") { if (i > 1) { sub(/^ /, "", cur); sub(/ $/, "", cur); f[++n] = cur }; cur = "" }
    else cur = cur c
  }
  return n
}
# compare(name, first): the doc's block (blk[1..nblk], from line first) against the generated one.
function compare(name, first,   n, i, j, nf, no, fo, fn, hdr, nh, what) {
  n = body(name)
  nh = cells(out[1], hdr)
  for (i = 1; i <= n || i <= nblk; i++) {
    if (i <= n && i <= nblk && blk[i] == out[i]) continue
    diffs++
    if (i > nblk) { printf "%s:%d: table %s: the doc lacks the row \"%s\"\n", doc, first + nblk, name, safe(out[i]) > "/dev/stderr"; continue }
    if (i > n) { printf "%s:%d: table %s: the doc has a row the results do not: \"%s\"\n", doc, first + i - 1, name, safe(blk[i]) > "/dev/stderr"; continue }
    nf = cells(out[i], fn); no = cells(blk[i], fo)
    what = name == "summary" ? fn[1] " " fn[2] " " fn[3] : fn[1] " " fn[2]
    if (nf != no || nh < 2) { printf "%s:%d: table %s, row %s: the doc has \"%s\", the results give \"%s\"\n", doc, first + i - 1, name, safe(what), safe(blk[i]), safe(out[i]) > "/dev/stderr"; continue }
    for (j = 1; j <= nf; j++) if (fn[j] != fo[j])
      printf "%s:%d: table %s, row %s, column \"%s\": the doc has \"%s\", the results give \"%s\"\n", doc, first + i - 1, name, safe(what), hdr[j], safe(fo[j]), safe(fn[j]) > "/dev/stderr"
  }
}
BEGIN {
  if (stsv != "")
    while ((getline l < stsv) > 0) {
      split(l, f, "\t")
      nstr++; sseed[nstr] = f[1]; spts[nstr] = f[2]; smetric[nstr] = f[3]; sver[nstr] = f[4]; sstr[nstr] = f[5]; swhy[nstr] = f[6]
    }
}
FILENAME != doc {
  if ($1 == "comparison") {
    ncomp++; cseed[ncomp] = $2; cpts[ncomp] = $3; cmetric[ncomp] = $4; cpub[ncomp] = $5; cnic[ncomp] = $6; coff[ncomp] = $7; cver[ncomp] = $8
    v = $8; sub(/ .*/, "", v); cnt[v]++
    if (v == "PASS" && $8 ~ / weak: /) nweak++
  } else if ($1 == "mechanism") {
    nmech++; mseed[nmech] = $2; mpts[nmech] = $3; mmetric[nmech] = $4; mwhat[nmech] = $5; mval[nmech] = $6; mmiss[nmech] = $7; mnote[nmech] = $8
  }
  next
}
{
  if (match($0, /^<!-- seeds:table:[^ ]+:BEGIN -->$/)) {
    if (inblk) bad("a BEGIN inside table " name)
    name = $0; sub(/^<!-- seeds:table:/, "", name); sub(/:BEGIN -->$/, "", name)
    if (!known(name)) bad("unknown table \"" safe(name) "\" (known: summary, summary:count, strength, SEED, SEED:mechanism for a seed of this run)")
    if (name in done) bad("table " name " twice")
    done[name] = 1
    inblk = 1; nblk = 0; first = FNR + 1
    print > newdoc
    next
  }
  if (match($0, /^<!-- seeds:table:[^ ]+:END -->$/)) {
    e = $0; sub(/^<!-- seeds:table:/, "", e); sub(/:END -->$/, "", e)
    if (!inblk || e != name) { bad("an END of " safe(e) " without its BEGIN"); next }
    inblk = 0
    if (!err && name == "strength" && !nstr) {
      # no strength run here: the block stays as it is, unchecked
      if (mode == "check") printf "%s:%d: note: table strength not checked (scripts/seeds.sh --json regenerates it)\n", doc, first - 1 > "/dev/stderr"
      else for (i = 1; i <= nblk; i++) print blk[i] > newdoc
    } else if (!err) {
      if (mode == "check") compare(name, first)
      else { n = body(name); for (i = 1; i <= n; i++) print out[i] > newdoc }
    }
    print > newdoc
    next
  }
  if (inblk) { blk[++nblk] = $0; next }
  print > newdoc
}
END {
  if (inblk) { FNR = first - 1; bad("table " name " has no END marker") }
  if (err) exit 2
  if (mode == "check" && diffs) { printf "%s: %d line(s) of its generated tables differ from the results (scripts/seeds.sh --write-doc rewrites them)\n", doc, diffs > "/dev/stderr"; exit 1 }
}
