#!/usr/bin/env bash
# Makes the opening book: every position of the first PLIES turns from
# the start (White's first turn, Black's reply to each, White's second),
# each searched by a fresh engine to NODES nodes with a large table. A
# search by nodes gives the same turn on any machine, so the same command
# makes the same book.
#
#   crates/fanorona-engine/book/make.sh [PLIES] [NODES] [JOBS] [FROM] [BOOK ALONG] > book.txt
#
# With FROM, only the positions FROM turns or more into the game (the
# start is 0). With BOOK (a part of the book) and ALONG, a position ALONG
# turns or more into the game that BOOK has is followed only by BOOK's
# turn, not by every legal one: the positions level 6 can meet after it
# played from the book. The command of each part of the book is in its
# header; `fanorona` is the release build on PATH or in $FANORONA.
set -euo pipefail
plies=${1:-3}
nodes=${2:-100000000}
jobs=${3:-2}
from=${4:-0}
book=${5:-}
along=${6:-0}
fanorona=${FANORONA:-fanorona}

# The turn BOOK plays in position $1, if it has one.
book_turn() {
  awk -F'\t' -v p="$1" '$1 == p { print $2; found = 1; exit } END { exit !found }' "$book"
}

# Every position of the first `plies` turns, each once, in order.
positions=$(mktemp)
trap 'rm -f "$positions" "$positions".*' EXIT
echo "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0" >"$positions.0"
level="$positions.0"
if ((from == 0)); then cat "$positions.0" >"$positions"; else : >"$positions"; fi
for ((ply = 1; ply < plies; ply++)); do
  next="$positions.$ply"
  : >"$next"
  while read -r pos; do
    if [[ -n $book ]] && ((ply - 1 >= along)) && turn=$(book_turn "$pos"); then
      "$fanorona" play "$pos" "$turn"
    else
      while read -r turn; do
        "$fanorona" play "$pos" "$turn"
      done < <("$fanorona" moves "$pos")
    fi >>"$next"
  done <"$level"
  awk '!seen[$0]++' "$next" >"$next.u"
  mv "$next.u" "$next"
  if ((ply >= from)); then cat "$next" >>"$positions"; fi
  level="$next"
done
awk '!seen[$0]++' "$positions" >"$positions.all"

# One engine a job, each searching every JOBS-th position.
search() {
  local job=$1
  awk -v j="$job" -v n="$jobs" '(NR - 1) % n == j' "$positions.all" |
    while read -r pos; do
      printf 'newgame\nposition %s\ngo nodes %s\n' "$pos" "$nodes"
    done |
    { cat; echo quit; } |
    "$fanorona" engine --tables 0 --hash 512 |
    awk -v j="$job" -v n="$jobs" '
      /^info / { line = $0 }
      /^bestturn / { print line "\t" $2 }' >"$positions.out.$job"
}
for ((j = 0; j < jobs; j++)); do
  search "$j" &
done
wait
# Back in the order of the positions: position, turn, score, depth.
for ((j = 0; j < jobs; j++)); do
  awk -v j="$j" -v n="$jobs" '(NR - 1) % n == j' "$positions.all" >"$positions.pos.$j"
  paste "$positions.pos.$j" "$positions.out.$j" >"$positions.book.$j"
done
echo "# fanorona opening book: position, the turn, then the search's score (for the side to move) and depth"
echo "# made by: crates/fanorona-engine/book/make.sh $plies $nodes $jobs $from${book:+ $(basename "$book") $along}"
for ((j = 0; j < jobs; j++)); do cat "$positions.book.$j"; done |
  awk -F'\t' '{
    split($2, f, " ")
    score = ""; depth = ""
    for (i = 1; i <= length(f); i++) {
      if (f[i] == "depth") depth = f[i + 1]
      if (f[i] == "score") score = (f[i + 1] == "won" || f[i + 1] == "lost") ? f[i + 1] : f[i + 1] " " f[i + 2]
    }
    print $1 "\t" $3 "\t" score "\t" depth
  }' >"$positions.lines"
# Keep the order of the positions file.
awk -F'\t' 'NR == FNR { line[$1] = $0; next } { print line[$0] }' "$positions.lines" "$positions.all"
