#!/usr/bin/env bash
# The suite's secrets gate: no key, secret, token or hash the tests recorded (SECRETS, one a line,
# test/helpers/issued-secrets.ts) appears in the log file LOG nor in the other files named (the
# suites' outputs). It fails too when there is nothing to check: no secret recorded, or a log
# without access lines (the suite did not log at info into LOG).
# Usage: secrets-in-logs.sh SECRETS LOG [OUTPUT...]
set -uo pipefail
secrets=$1
logfile=$2
shift 2
if [ ! -s "$secrets" ]; then
  echo "no secret was recorded in $secrets"
  exit 1
fi
access=$(grep -c -a -F '"msg":"request"' "$logfile" 2>/dev/null)
if [ "${access:-0}" -eq 0 ]; then
  echo "no access line in $logfile"
  exit 1
fi
patterns=$(mktemp)
trap 'rm -f "$patterns"' EXIT
sort -u "$secrets" | grep -v '^$' >"$patterns"
count=$(cat "$logfile" "$@" | grep -c -a -F -f "$patterns")
if [ "$count" -eq 0 ]; then
  echo "$(wc -l <"$patterns") secrets, none in $access access lines and $# outputs"
  exit 0
fi
first=$(grep -h -m1 -a -F -f "$patterns" "$logfile" "$@" | head -n 1)
while IFS= read -r found; do
  first=${first//"$found"/[redacted]}
done < <(grep -o -a -F -f "$patterns" <<<"$first" | sort -u)
echo "$count lines hold a recorded secret; the first: ${first:0:2000}"
exit 1
