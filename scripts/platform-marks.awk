# platform-marks.awk: lists the keys of a platform file (configs/platforms/*.yaml)
# with the mark of the comment block just above each: one line per key,
#   KEY <tab> MARK <tab> VALUE <tab> LINE <tab> COMMENT
# KEY is the dotted config key (memory.uncached_load_ns), MARK the first of
# S, D, E, C written as "X:" in the block (or - when the key has no comment
# of its own), COMMENT the block joined into one line. Used by
# scripts/seeds.sh (docs/seeds.md). POSIX awk.
/^[ \t]*#/ {
  c = $0; sub(/^[ \t]*#[ ]?/, "", c)
  cm = cm (cm == "" ? "" : " ") c
  next
}
/^[ \t]*$/ { cm = ""; next }
{
  match($0, /^ */); ind = RLENGTH
  rest = substr($0, ind + 1)
  if (rest !~ /^[A-Za-z0-9_]+:/) { cm = ""; next }
  key = rest; sub(/:.*/, "", key)
  val = rest; sub(/^[A-Za-z0-9_]+:[ ]*/, "", val); sub(/[ ]+#.*$/, "", val); sub(/[ \t]+$/, "", val)
  while (depth > 0 && ind <= indent[depth]) depth--
  if (val == "") { depth++; indent[depth] = ind; name[depth] = key; cm = ""; next }
  full = ""
  for (i = 1; i <= depth; i++) full = full name[i] "."
  full = full key
  mark = "-"
  if (match(cm, /(^|[^A-Za-z])[SDEC]:/)) { m = substr(cm, RSTART, RLENGTH); mark = substr(m, length(m) - 1, 1) }
  gsub(/\t/, " ", cm)
  printf "%s\t%s\t%s\t%d\t%s\n", full, mark, val, NR, cm
  cm = ""
}
