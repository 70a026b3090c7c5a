# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="per-patch checks"

run() { # patchcheck.sh's table; CHECK_LIGHT=1: no x86_64 builds, KUnit at the last patch
	local t=$SECONDS
	if [ "$CHECK_LIGHT" = 0 ]; then
		info "checkpatch, KUnit, W=1 gcc (tests off, tests built) and clang, sparse, kernel-doc, trailers, recipients${PATCHES:+; patches $PATCHES}"
	else
		info "checkpatch, kernel-doc, trailers, KUnit at the last patch; BASE=$BASE make check runs the whole table"
	fi
	# shellcheck disable=SC2016 # expanded by the inner bash
	ERR=$4/patchcheck.err LOG=$4/patchcheck.log BSK_COUNTS=$4/patchcheck.counts step bash -c \
		'"$0" "$@" 2> >(tee "$ERR" >&2) | tee "$LOG"; exit "${PIPESTATUS[0]}"' \
		tools/gate/patchcheck.sh "$1" "$2" "$3" "$4/patches"
	result_of_run "$4/patchcheck.counts" "$4/patchcheck.log" $? "per-patch checks, $BASE (table: $4/patches/checks.md)" "$t"
}
