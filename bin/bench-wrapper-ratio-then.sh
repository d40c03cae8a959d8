#!/usr/bin/env bash
# `npm run bench:ratio-then` (docs/decisions/059-wrapper-ratio-measured-warm.md): the wrapper-ratio bench
# of this checkout, run on the code as it was when issue 12 was filed (commit 08eb064, or the commit
# given) and on this checkout, in turns, ROUNDS times each. Issue 12 read 0.66 "today" with a bench that
# ran the bare loop first on a cold DynamoDB Local; this shows what the same warm, interleaved bench reads
# on that code. Needs the git history (a clone has it) and `npm ci` done here; loopback only, bounded by
# the bench's own hard limit. Not part of `npm run bench` or CI: it compares, it guards nothing.
set -euo pipefail

commit="${1:-08eb064}"
rounds="${ROUNDS:-3}"
root="$(git rev-parse --show-toplevel)"
tree="$(mktemp -d)"
cleanup() {
  git -C "$root" worktree remove --force "$tree" > /dev/null 2>&1 || rm -rf "$tree"
  git -C "$root" worktree prune
}
trap cleanup EXIT

git -C "$root" worktree add --detach "$tree" "$commit" > /dev/null 2>&1
ln -s "$root/node_modules" "$tree/node_modules"
# The bench and its stack helper as they are now, so that both sides are measured the same way.
cp "$root/bin/bench-support.ts" "$root/bin/bench-wrapper-ratio.ts" "$tree/bin/"

ratios() { (cd "$1" && npx tsx bin/bench-wrapper-ratio.ts 2>&1 | grep -o 'ratio [0-9.]*' | paste -sd ' '); }
for round in $(seq 1 "$rounds"); do
  echo "round $round: $commit: $(ratios "$tree")"
  echo "round $round: this checkout: $(ratios "$root")"
done
echo "(first ratio: against the bare GetItem loop; second: against the two reads /me makes, at once)"
