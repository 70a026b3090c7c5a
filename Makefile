# SPDX-License-Identifier: GPL-2.0
#
# Front door of the blk-sched-kunit series.  Every target is a thin call
# into tools/; see README.md and docs/ (a page per task).
#
#   make              dependencies -> base -> apply the series -> KUnit
#   make check        the full gate (tools/check.sh); STAGES= and PATCHES=
#                     run part of it
#   make send         b4 dry run: every thread of series in SEND_OUT,
#                     from you (git's user.name/email or FROM=); never sends
#   make bench        six VM scenarios (docs/benchmarks.md), base vs series kernel
#   make stress       faults, hotplug, switching on debug kernels in a VM
#   make drivers      fio on four drivers under QEMU (SD, AHCI, virtio-blk,
#                     scsi_debug), debug kernels, base vs rfc (docs/drivers.md)
#   make blktests     blktests' block group in a VM, base vs series
#                     (summary.md in a run directory of its own)
#   make s3-trace     S3 pass after pass with BFQ's decisions traced (base +
#                     debug/, QEMU icount): how often the slow mode comes
#   make arches       the suites on i386 and arm64 (QEMU), not in the gate
#   make coverage     line and branch coverage of the functions the suites
#                     call (UML + gcov, lcov)
#   make lava         the suites as LAVA jobs, run with lava-run on QEMU
#                     (x86_64, arm64) and compared case for case with
#                     kunit.py; or jobs for a lab (docs/lava.md)
#   make hwbench DEV=/dev/sdX   fio reads on a real disk, this machine's kernel (docs/benchmarks.md)
#   make promote RUN=dir TO=results/name
#                     copy a run's results into results/, to commit
#   make clean        remove what the tools added to KERNEL= (docs/bases.md)
#   make apply | refresh | kunit | base | deps | test-tools | mutate
#   make help         this text
#
#   BASE=mainline|lts   Debian kernel base and its series: series, or
#                       series-6.12 on the LTS base (default mainline;
#                       'make check' without BASE covers both)
#   KERNEL=/path        your own kernel git tree instead (its checkout is
#                       left alone; make clean takes out what is added)
#   ARCH=x86_64|i386|arm64|um
#                       make, make kunit: under QEMU, two sockets of two
#                       CPUs (default x86_64), or UML
#   STAGES="patches"    make check: these stages only (tools lint newest
#                       quilt patches nfc reverts smp rt send stress;
#                       default all)
#   PATCHES=5-7         make check: the per-patch table for these only
#   BSK_CACHE=dir       cache for bases, build dirs and runs
#                       (default ~/.cache/blk-sched-kunit)
#   SEND_OUT=dir        make send: where the mails go
#                       (default results/outgoing/<base>-v<N>, not committed)
#   FROM='Name <addr>'  make send: the sender, instead of git's identity
#   S=S1 RUNS=3         make bench: scenarios and runs per figure
#   ICOUNT=1            make bench: instructions per I/O under QEMU icount
#                       instead (deterministic; ICOUNT_PROFILE=1 adds where
#                       bfq spends them)
#   STRESS_SECONDS=300  make stress: how long each kernel is stressed
#   DRIVERS_SECONDS=120 make drivers: seconds of fio per disk
#   BLKTESTS=dir BLKTESTS_TESTS="block" BLKTESTS_TIMEOUT=10
#   BLKTESTS_BOOT_LIMIT=600 BLKTESTS_SCHEDULER=mq-deadline
#                       make blktests: the blktests tree (default
#                       ../shared/blktests), what ./check runs, fio seconds,
#                       seconds a guest may take to start its script
#   PASSES=6 SPECS="bfq mq-deadline" TRACE_OUT=dir
#                       make s3-trace: passes, schedulers, results
#                       (ICOUNT=0: plain TCG instead)
#   KUNIT_DEBUG=1       make kunit: under the sanitizers of configs/debug.config
#   KUNIT_TOPOLOGY=name make kunit: another QEMU machine of kunit/matrix
#   LAVA_ROWS="x86_64 arm64" LAVA_DEVICE_TYPE=type LAVA_KERNEL_URL=url
#                       make lava: the kunit/matrix lines; a lab's device
#                       type and where it fetches the kernels ({name})

# No export: make hands a recipe the variables of its command line and of
# the environment, and each tool reads its own (docs/reference.md).

DEPS := base build $(if $(filter x86_64,$(or $(ARCH),x86_64)),x86) $(if $(filter i386 arm64,$(ARCH)),arches)

.PHONY: all deps base apply refresh kunit check send bench hwbench stress drivers blktests s3-trace test-tools mutate help arches coverage lava promote clean

all: deps
	@tools/apply.sh >/dev/null
	@tools/kunit.sh

deps:
	@tools/env/deps.sh $(DEPS)

help:
	@sed -n '3,/^$$/{/^#/s/^# \{0,1\}//p}' Makefile

base: deps
	@tools/env/tree.sh >/dev/null

apply: deps
	@tools/apply.sh

refresh:
	@tools/refresh.sh

promote:
	@tools/promote.sh "$(RUN)" "$(TO)"

clean:
	@tools/clean.sh

kunit: deps
	@tools/kunit.sh

check:
	@tools/check.sh

send:
	@tools/env/deps.sh base send
	@tools/send.sh

# The suites on i386 and arm64 under QEMU (ARCHES="i386 arm64").
arches:
	@tools/env/deps.sh base build arches
	@tools/apply.sh >/dev/null
	@tools/arches.sh

# The suites as LAVA jobs, run with lava-run on QEMU (docs/lava.md).
lava:
	@tools/env/deps.sh base build x86 arches lava
	@tools/apply.sh >/dev/null
	@tools/lava.sh

# Line and branch coverage of the functions the suites call.
coverage:
	@tools/env/deps.sh base build coverage
	@tools/apply.sh >/dev/null
	@tools/coverage.sh

# The seeds' scenarios in a virtme-ng VM, base vs series (S=S1 for one).
bench:
	@tools/bench.sh

# fio on a real disk, on the kernel this machine booted (base or rfc).
hwbench:
	@tools/hwbench.sh "$(DEV)"

# Switching, hotplug and faults on debug kernels, base and series.
stress:
	@tools/stress.sh

# fio on four drivers under QEMU, debug kernels, base and rfc (docs/drivers.md).
drivers:
	@tools/drivers.sh

# blktests' block group on base and series (docs/blktests.md).
blktests:
	@tools/blktests.sh

# BFQ's slow mode in S3, traced pass by pass (debug/ patch).
s3-trace:
	@tools/s3-trace.sh

# Every mutation listed in kunit/mutations/ must make a suite fail.
mutate:
	@tools/env/deps.sh base build x86
	@tools/apply.sh >/dev/null
	@tools/mutate.sh

# The gate's tools stage (shellcheck, bats), the one definition of both.
test-tools:
	@STAGES=tools tools/check.sh
