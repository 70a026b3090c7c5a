# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="quilt push"
requires() { needs quilt; }

run() { # quilt push -a --fuzz=0 on a plain copy of the files gives git am's
	local wt=$1 base=$2 series=$3 qt rc f files
	qt=$(mktemp -d)
	mapfile -t files < <(git -C "$wt" diff --name-only "$base" HEAD)
	for f in "${files[@]}"; do
		if git -C "$wt" cat-file -e "$base:$f" 2>/dev/null; then
			mkdir -p "$qt/$(dirname "$f")"
			git -C "$wt" show "$base:$f" >"$qt/$f"
		fi
	done
	(cd "$qt" && QUILT_PATCHES="$(dirname "$series")/patches" QUILT_SERIES="$series" \
		quilt push -a -q --fuzz=0 >"$4/quilt.log" 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ]; then
		for f in "${files[@]}"; do
			cmp -s "$qt/$f" "$wt/$f" || { echo "quilt result differs from git am: $f"; rc=1; }
		done
	else
		cat "$4/quilt.log"
	fi
	rm -rf "$qt"
	result "quilt push -a --fuzz=0 of $(basename "$series") gives the same files as git am" "$rc"
}
