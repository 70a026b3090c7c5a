# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="KUnit under x86_64 SMP"

requires() {
	[ "$ARCH" = um ] || { echo "ARCH=$ARCH: the per-patch runs are already under QEMU, not UML"; return 1; }
	needs qemu-system-x86_64 cpio
}

# Two LLCs under the sanitizers, nothing skipped; the kernel check.sh built in the background
# (LOGDIR/vmkernel.*, which the stress boots too), or on LTS (no configs/vm.config) kunit.py's.
run() {
	local L=$4 k='' c
	if [ -f "$L/vmkernel.rc" ]; then
		if [ "$(cat "$L/vmkernel.rc")" != 0 ] || [ ! -s "$L/vmkernel.out" ]; then
			tail -n 3 "$L/vmkernel.log"
			result "the series' debug guest kernel with the suites builds ($BASE)" 1
			return
		fi
		info "$(tail -n 1 "$L/vmkernel.log")"
		k=$(dirname "$(cat "$L/vmkernel.out")")
	fi
	KUNIT_DEBUG=1 ARCH=x86_64 KUNIT_KERNEL=$k KUNIT_OUT=$L/kunit-x86_64 BSK_COUNTS=$L/kunit-x86_64.counts \
		step tools/kunit.sh "$1" >"$L/kunit-x86_64.log" 2>&1
	result_of_run "$L/kunit-x86_64.counts" "$L/kunit-x86_64.log" $? \
		"KUnit x86_64 SMP under KASAN, KFENCE, UBSAN, lockdep at the tip ($BASE)" "$BSK_STAGE_T0"
	c=$(kunit_json_skipped "$L/kunit-x86_64/results.json" 2>/dev/null) || return 0
	[ -z "$c" ] || { printf '      skipped: %s\n' "${c//$'\n'/, }"; result "no case skipped under x86_64 SMP ($BASE)" 1; }
}
