# i40e-relaxed-ordering.gp: the i40e-relaxed-ordering seed (i40e relaxed ordering, shared/seeds/004): published change
# against nicsim's, one group of bars per compared figure (a row of plots/published.tsv).
# scripts/seeds.sh writes the data (DIR/i40e-relaxed-ordering.dat) and renders it with
#   gnuplot -e "datafile='DIR/i40e-relaxed-ordering.dat'; outfile='plots/i40e-relaxed-ordering.svg'" plots/i40e-relaxed-ordering.gp
# Units differ between figures, so each before/after pair is normalised to its
# own before = 1: the bars are after / before, published (blue) and nicsim
# (orange). The whisker on nicsim's bar is the pass band (headline: within 25%
# of the published change; unchanged: within 5% of 1); none for info rows.

if (!exists("datafile")) datafile = "i40e-relaxed-ordering.dat"
if (!exists("outfile")) outfile = "i40e-relaxed-ordering.svg"

set terminal svg size 900,520 dynamic font "sans,12" noenhanced
set output outfile
set datafile separator "\t"
set datafile missing "-"          # no published figure, or no nicsim result

set title "i40e-relaxed-ordering: RX throughput, DMA_ATTR_WEAK_ORDERING off -> on\n(after / before, each pair normalised to its own before = 1)"
set ylabel "after / before"
set yrange [0:*]
set offsets 0.6, 0.6, graph 0.08, 0   # room beside the outer groups and above the labels
set xtics scale 0
set bmargin 5                         # three lines of tick labels: platform, metric, verdict
set grid ytics
set key outside right top   # beside the plot: never over a bar
set style fill solid 0.85 border -1
set boxwidth 0.34

# Columns of the .dat: 1 index, 2 platform, 3 metric, 4 published after/before,
# 5 nicsim after/before, 6 and 7 the pass band (low, high), 8 verdict.
w = 0.18                              # half the distance between the two bars of a group
plot datafile using 1:(NaN):xtic(sprintf("%s\n%s\n%s", strcol(2), strcol(3), strcol(8))) notitle, \
     ''       using ($1-w):4 with boxes lc rgb "#4e79a7" title "published", \
     ''       using ($1+w):5 with boxes lc rgb "#f28e2b" title "nicsim", \
     ''       using ($1+w):6:(0):($7-$6) with vectors heads size screen 0.01,90 lc rgb "black" lw 1.5 title "pass band", \
     ''       using ($1-w):4:(sprintf("%.3g", $4)) with labels offset 0,0.8 notitle, \
     ''       using ($1+w):5:(sprintf("%.3g", $5)) with labels offset 0,0.8 notitle, \
     1 with lines dt 2 lc rgb "gray40" title "before = 1"
