# Sourced first by every documentation session (test/docs/doc-blocks.ts): strict mode, a curl
# that fails on an error answer (also inside $(...): failures are written to $DOCS_FAILURES,
# which __docs_check reads after every block), the poster of ```graphql blocks, and the
# background jobs a document starts stopped at the end.
set -euo pipefail
curl() {
  local out rc=0
  out=$(mktemp)
  command curl --fail-with-body "$@" > "$out" || rc=$?
  cat "$out"
  if [ "$rc" -ne 0 ]; then
    printf 'curl %s\n  exit %s: %s\n' "$*" "$rc" "$(head -c 2000 "$out")" >> "$DOCS_FAILURES"
  elif [[ "$*" == */graphql* ]] && grep -q '"errors"' "$out"; then
    printf 'curl %s\n  GraphQL errors: %s\n' "$*" "$(head -c 2000 "$out")" >> "$DOCS_FAILURES"
    rc=98
  fi
  rm -f "$out"
  return "$rc"
}
__docs_graphql() {
  local op="$1" vars='{}' spec name line
  shift
  for spec in "$@"; do
    name=${spec%:*}
    if [ "${spec##*:}" = j ]; then
      vars=$(jq -c --arg k "$name" --argjson v "${!name}" '. + {($k): $v}' <<<"$vars")
    else
      vars=$(jq -c --arg k "$name" --arg v "${!name}" '. + {($k): $v}' <<<"$vars")
    fi
  done
  local headers=()
  while IFS= read -r line; do
    [[ "$line" =~ ^#\ ([A-Za-z-]+):\ (.*)$ ]] || break
    headers+=(-H "${BASH_REMATCH[1]}: $(eval "printf '%s' \"${BASH_REMATCH[2]}\"")")
  done <<<"$op"
  [ "${#headers[@]}" -gt 0 ] || headers=(-H "X-API-Key: $KEY")
  curl -sS "$B/graphql" -H 'content-type: application/json' "${headers[@]}" \
    -d "$(jq -cn --arg q "$op" --argjson v "$vars" '{query: $q, variables: $v}')"
  echo
}
__docs_check() {
  if [ -s "$DOCS_FAILURES" ]; then
    echo "a request failed:" >&2
    cat "$DOCS_FAILURES" >&2
    exit 97
  fi
}
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
