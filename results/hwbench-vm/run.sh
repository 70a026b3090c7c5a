#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - lava/hwbench.yaml's run steps as lava-test-shell runs them (its
# params as shell variables, the job's overriding the defaults, from the
# repository's top), in a virtme-ng guest on a virtio-blk disk of 1 GiB:
# tools/hwbench.sh on the rfc kernel with CONFIG_LOCK_STAT
# (tools/env/vmkernel.sh rfc configs/lockstat.config).  lava-test-case is
# a stub that prints its arguments, LAVA's own needing its overlay (a
# guest image made with libguestfs, which this machine's LAVA lacks).
# Run from the top: results/hwbench-vm/run.sh; writes hwbench.sh's run
# directory (run/) and cases.txt here.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/results/hwbench-vm
C=${BSK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/blk-sched-kunit}
kimg=$("$top/tools/env/vmkernel.sh" rfc "$top/configs/lockstat.config")
d=$(mktemp -d)
mkdir -p "$d/bin"
truncate -s 1G "$d/disk.img"
cat >"$d/bin/lava-test-case" <<'EOF'
#!/bin/sh
# lava-test-case NAME --shell CMD... | NAME --result R [--measurement M --units U]
n=$1
shift
if [ "$1" = --shell ]; then
	shift
	if "$@"; then r=pass; else r=fail; fi
	echo "lava-test-case $n --result $r" >>"$CASES"
else
	echo "lava-test-case $n $*" >>"$CASES"
fi
EOF
chmod +x "$d/bin/lava-test-case"
# the definition's params (the job's: DEVICE, HWBENCH_DESTROY, HWBENCH_SECONDS), then its steps
"$C/lava/bin/lava-python" -c '
import shlex, sys, yaml
t = yaml.safe_load(open(sys.argv[1]))
p = dict(t["params"], DEVICE="/dev/vda", HWBENCH_DESTROY="1", HWBENCH_SECONDS="3")
print("\n".join(["set -e"] + ["%s=%s" % (k, shlex.quote(v)) for k, v in p.items()] + t["run"]["steps"]))
' "$top/lava/hwbench.yaml" >"$d/steps.sh"
rm -rf "$here/run" "$here/cases.txt"
"$C/vng/vng" --user root --disable-kvm --cpus 2 --memory 2G --rwdir "$d" --rwdir "$here" -r "$kimg" \
	--qemu-opts="-drive file=$d/disk.img,if=none,id=hwdisk,format=raw -device virtio-blk-pci,drive=hwdisk" \
	--append kunit.enable=0 --exec "cd $top && PATH=$d/bin:\$PATH CASES=$here/cases.txt sh $d/steps.sh; cp -r /tmp/hwbench $here/run; reboot -f"
rm -rf "$d"
