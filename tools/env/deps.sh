#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [GROUP...] - make sure the Debian packages a step needs are there.
# As root, missing packages are installed (apt-get update once first);
# otherwise the exact apt-get line is printed and the script stops.
#
# Groups: base (fetch a kernel base), build (kunit.py under UML),
# x86 (kunit.py under QEMU), arches (i386 and arm64 under QEMU: make
# arches), coverage (lcov: make coverage), vm (virtme-ng guests: make
# bench, make stress), blktests (make blktests), send (make send), b4 and
# lava (the Python modules of the Debian packages b4.sh and lava.sh
# unpack), check (the full gate).  With KERNEL= (your own tree) no Debian base is
# fetched: base needs git and make only.  On a machine without apt-get
# the missing programs are named, with the step that needs them.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

# "command package" pairs per group.
# shellcheck disable=SC2034 # read through ${!var}
group_base="apt-get:apt dpkg-deb:dpkg xz:xz-utils git:git gpgv:gpgv make:make"
# shellcheck disable=SC2034
group_build="gcc:gcc make:make flex:flex bison:bison bc:bc python3:python3 perl:perl"
# Installed when this run installs packages anyway (root with apt-get),
# never required: the builds use ccache when it is there.
# shellcheck disable=SC2034
optional_build="ccache:ccache"
# shellcheck disable=SC2034
group_x86="qemu-system-x86_64:qemu-system-x86 cpio:cpio"
# shellcheck disable=SC2034
group_arches="qemu-system-i386:qemu-system-x86 qemu-system-aarch64:qemu-system-arm aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu"
# shellcheck disable=SC2034
group_coverage="lcov:lcov"
# shellcheck disable=SC2034
group_vm="qemu-system-x86_64:qemu-system-x86 udevadm:udev fio:fio jq:jq gnuplot:gnuplot-nox dpkg-deb:dpkg busybox:busybox-static"
# What blktests and its guest kernel's modules need (make blktests):
# blktests' README, and the programs its block group's tests ask for.
# shellcheck disable=SC2034
group_blktests="rsync:rsync gawk:gawk column:bsdextrautils depmod:kmod modprobe:kmod mkfs.xfs:xfsprogs xfs_io:xfsprogs blktrace:blktrace setpci:pciutils nvme:nvme-cli"
# make send: b4 writes the mails, get_maintainer.pl (perl) the report's
# recipients; nothing is built.
# shellcheck disable=SC2034
group_send="git:git b4:b4 perl:perl"
# The Python modules of Debian trixie's b4, which tools/env/b4.sh unpacks
# when the installed b4 is older than 0.13 (the package's Depends).
# shellcheck disable=SC2034
group_b4="git-filter-repo:git-filter-repo python3:python3"
# shellcheck disable=SC2034
files_b4="/usr/lib/python3/dist-packages/dkim/__init__.py:python3-dkim /usr/lib/python3/dist-packages/dns/__init__.py:python3-dnspython /usr/lib/python3/dist-packages/patatt/__init__.py:python3-patatt /usr/lib/python3/dist-packages/requests/__init__.py:python3-requests"
# The Python modules of Debian unstable's lava-common and lava-dispatcher,
# which tools/env/lava.sh unpacks without installing them (the packages'
# Depends that lava-run imports for a QEMU job; bmaptool, fakeroot and the
# rest serve deploy methods the jobs do not use).
# shellcheck disable=SC2034
group_lava="python3:python3"
# shellcheck disable=SC2034
files_lava="/usr/lib/python3/dist-packages/aiohttp/__init__.py:python3-aiohttp /usr/lib/python3/dist-packages/configobj/__init__.py:python3-configobj /usr/lib/python3/dist-packages/jinja2/__init__.py:python3-jinja2 /usr/lib/python3/dist-packages/magic/__init__.py:python3-magic /usr/lib/python3/dist-packages/pexpect/__init__.py:python3-pexpect /usr/lib/python3/dist-packages/pyudev/__init__.py:python3-pyudev /usr/lib/python3/dist-packages/requests/__init__.py:python3-requests /usr/lib/python3/dist-packages/setproctitle/__init__.py:python3-setproctitle /usr/lib/python3/dist-packages/yaml/__init__.py:python3-yaml /usr/lib/python3/dist-packages/voluptuous/__init__.py:python3-voluptuous /usr/lib/python3/dist-packages/sentry_sdk/__init__.py:python3-sentry-sdk"
# qemu-system-aarch64: tests/lava.bats runs lava-run --validate on the
# arm64 job, and LAVA checks that the job's QEMU binary is there.
# shellcheck disable=SC2034
group_check="sparse:sparse dpkg-source:dpkg-dev quilt:quilt bats:bats shellcheck:shellcheck b4:b4 qemu-system-aarch64:qemu-system-arm"
# Build headers, and the Python modules scripts/spdxcheck.py (run by
# checkpatch with Debian's python3) imports, checked by file.
# shellcheck disable=SC2034
files_build="/usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev"
# blktests builds its ublk server (src/miniublk, block/033) with liburing;
# env/fio.sh builds a fio new enough for block/041 with libaio and zlib.
# shellcheck disable=SC2034
files_blktests="/usr/include/liburing.h:liburing-dev /usr/include/libaio.h:libaio-dev /usr/include/zlib.h:zlib1g-dev"
# shellcheck disable=SC2034
files_check="/usr/lib/python3/dist-packages/ply/__init__.py:python3-ply /usr/lib/python3/dist-packages/git/__init__.py:python3-git"
# The Python modules of Debian's virtme-ng, which tools/env/vng.sh unpacks
# without installing it (the package's Depends).
# shellcheck disable=SC2034
files_vm="/usr/lib/python3/dist-packages/requests/__init__.py:python3-requests /usr/lib/python3/dist-packages/argcomplete/__init__.py:python3-argcomplete"

# With your own tree nothing Debian-specific is needed to get a base.
# shellcheck disable=SC2034
[ -z "${KERNEL:-}" ] || group_base="git:git make:make"
declare -A why=([base]="getting the kernel tree" [build]="building the kernel" [x86]="KUnit under QEMU"
	[arches]="make arches" [coverage]="make coverage"
	[vm]="make bench and make stress" [blktests]="make blktests" [send]="make send" [b4]="b4 0.13 or later" [lava]="make lava" [check]="make check")

missing=()
programs=()
want() {
	case " ${missing[*]-} " in *" $1 "*) ;; *) missing+=("$1") ;; esac
	# a program once, with the first step that needs it
	case " ${programs[*]-} " in *" ${2%% (*} ("*) ;; *) programs+=("$2") ;; esac
}

check_settings
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(base build)
for g in "${groups[@]}"; do
	var=group_$g
	[ -n "${!var+x}" ] || die "unknown dependency group '$g' (base build x86 arches coverage vm blktests send b4 lava check)"
	for pair in ${!var}; do
		command -v "${pair%%:*}" >/dev/null 2>&1 || want "${pair#*:}" "${pair%%:*} (${why[$g]})"
	done
	files=files_$g
	for pair in ${!files-}; do
		[ -e "${pair%%:*}" ] || want "${pair#*:}" "${pair%%:*} (${why[$g]})"
	done
	# optional ones only where this run installs anyway (root, apt-get)
	opt=optional_$g
	{ command -v apt-get && [ "$(id -u)" = 0 ] && [ -z "${BSK_NO_INSTALL:-}" ]; } >/dev/null 2>&1 || continue
	for pair in ${!opt-}; do
		command -v "${pair%%:*}" >/dev/null 2>&1 || want "${pair#*:}" "${pair%%:*} (${why[$g]}, faster)"
	done
done

[ ${#missing[@]} -gt 0 ] || exit 0
command -v apt-get >/dev/null 2>&1 ||
	die "missing, and no apt-get here to install them: $(printf '%s, ' "${programs[@]}" | sed 's/, $//'); install them with this system's packages"

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ] || [ -n "${BSK_NO_INSTALL:-}" ]; then
	die "missing Debian packages; run: sudo apt-get update && sudo $line"
fi
info "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -q update >/dev/null || die "apt-get update failed; run: apt-get update && $line"
apt-get -q -y --no-install-recommends install "${missing[@]}" >/dev/null ||
	die "apt-get install failed; run: $line"
