#!/usr/bin/env bash
# The closing table of `make bench`: every GOAL line the benchmarks printed into the log given (see
# `outreach_core::testing::goals`), as one Markdown table of figures against their goals. `make bench` runs each
# benchmark more than once: a figure's runs share one row, in the order they ran, and it meets its goal only when
# every run does.
set -euo pipefail
log="$1"
echo
echo "| item | figure | measured | goal | verdict |"
echo "|---|---|---:|---|---|"
grep '^GOAL|' "$log" | awk -F'|' '
  {
    key = $2 "|" $3
    if (!(key in figures)) { order[++count] = key; goal[key] = $5; figures[key] = $4 }
    else figures[key] = figures[key] "; " $4
    runs[key]++
    if ($6 == "MISSED") missed[key]++
    recorded[key] = ($6 == "recorded")
  }
  END {
    below = 0
    for (i = 1; i <= count; i++) {
      key = order[i]; split(key, part, "|")
      if (recorded[key]) verdict = "recorded"
      else if (!missed[key]) verdict = "met"
      else if (missed[key] == runs[key]) verdict = "MISSED"
      else verdict = "MISSED in " missed[key] " of " runs[key] " runs"
      if (missed[key]) below++
      printf "| %s | %s | %s | %s | %s |\n", part[1], part[2], figures[key], goal[key], verdict
    }
    printf "\n%d figures, %d below their goal in at least one run", count, below
  }'
echo "; the whole output is in $log"
