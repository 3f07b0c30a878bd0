#!/usr/bin/env bash
# The closing table of `make bench`: every GOAL line the benchmarks printed into the log given (see
# `outreach_core::testing::goals`), as one Markdown table of figures against their goals.
set -euo pipefail
log="$1"
echo
echo "| item | figure | measured | goal | verdict |"
echo "|---|---|---:|---|---|"
grep '^GOAL|' "$log" | while IFS='|' read -r _ id what figure goal verdict; do
  echo "| $id | $what | $figure | $goal | $verdict |"
done
missed=$(grep -c '^GOAL|.*|MISSED$' "$log" || true)
echo
echo "$(grep -c '^GOAL|' "$log") figures, $missed below their goal; the whole output is in $log"
