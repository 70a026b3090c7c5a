# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="KUnit under PREEMPT_RT"
requires() { needs qemu-system-x86_64 cpio; }

# Threaded interrupts: the completion cases that need an IPI skip, saying why; nothing fails.
run() {
	KUNIT_DEBUG=rt ARCH=x86_64 KUNIT_OUT=$4/kunit-rt BSK_COUNTS=$4/kunit-rt.counts \
		step tools/kunit.sh "$1" >"$4/kunit-rt.log" 2>&1
	result_of_run "$4/kunit-rt.counts" "$4/kunit-rt.log" $? \
		"KUnit x86_64 SMP under PREEMPT_RT, lockdep and the sanitizers at the tip ($BASE)" "$BSK_STAGE_T0"
	kunit_json_skipped "$4/kunit-rt/results.json" 2>/dev/null | sed 's/^/      skipped: /'
}
