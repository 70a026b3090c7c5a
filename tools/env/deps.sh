#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh [GROUP...] - make sure the Debian packages a step needs (groups
# below; default base build) are there: as root they are installed, else
# the apt-get line to run is printed.  docs/environment.md.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

# "command:package" per group, files "path:package"; b4, lava, vm: the Depends of what
# env/b4.sh, lava.sh and vng.sh unpack
py=/usr/lib/python3/dist-packages
declare -A group=(
	[base]="apt-get:apt dpkg-deb:dpkg xz:xz-utils git:git gpgv:gpgv make:make"
	[build]="gcc:gcc make:make flex:flex bison:bison bc:bc python3:python3 perl:perl"
	[x86]="qemu-system-x86_64:qemu-system-x86 cpio:cpio"
	[arches]="qemu-system-i386:qemu-system-x86 qemu-system-aarch64:qemu-system-arm aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu"
	[coverage]="lcov:lcov"
	[vm]="qemu-system-x86_64:qemu-system-x86 udevadm:udev fio:fio jq:jq gnuplot:gnuplot-nox dpkg-deb:dpkg busybox:busybox-static"
	[blktests]="rsync:rsync gawk:gawk column:bsdextrautils depmod:kmod modprobe:kmod mkfs.xfs:xfsprogs xfs_io:xfsprogs blktrace:blktrace setpci:pciutils nvme:nvme-cli"
	[send]="git:git b4:b4 perl:perl"
	[b4]="git-filter-repo:git-filter-repo python3:python3"
	[lava]="python3:python3"
	[check]="sparse:sparse dpkg-source:dpkg-dev quilt:quilt bats:bats shellcheck:shellcheck b4:b4 qemu-system-aarch64:qemu-system-arm"
)
declare -A files=(
	[build]="/usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev"
	[blktests]="/usr/include/liburing.h:liburing-dev /usr/include/libaio.h:libaio-dev /usr/include/zlib.h:zlib1g-dev"
	[b4]="$py/dkim/__init__.py:python3-dkim $py/dns/__init__.py:python3-dnspython $py/patatt/__init__.py:python3-patatt $py/requests/__init__.py:python3-requests"
	[lava]="$py/aiohttp/__init__.py:python3-aiohttp $py/configobj/__init__.py:python3-configobj $py/jinja2/__init__.py:python3-jinja2 $py/magic/__init__.py:python3-magic $py/pexpect/__init__.py:python3-pexpect $py/pyudev/__init__.py:python3-pyudev $py/requests/__init__.py:python3-requests $py/setproctitle/__init__.py:python3-setproctitle $py/yaml/__init__.py:python3-yaml $py/voluptuous/__init__.py:python3-voluptuous $py/sentry_sdk/__init__.py:python3-sentry-sdk"
	[check]="$py/ply/__init__.py:python3-ply $py/git/__init__.py:python3-git"
	[vm]="$py/requests/__init__.py:python3-requests $py/argcomplete/__init__.py:python3-argcomplete"
)
declare -A optional=([build]="ccache:ccache")
# with your own tree nothing Debian-specific is needed to get a base
[ -z "${KERNEL:-}" ] || group[base]="git:git make:make"
declare -A why=([base]="getting the kernel tree" [build]="building the kernel" [x86]="KUnit under QEMU"
	[arches]="make arches" [coverage]="make coverage"
	[vm]="make bench and make stress" [blktests]="make blktests" [send]="make send" [b4]="b4 0.13 or later" [lava]="make lava" [check]="make check")

missing=() programs=()
want() {
	case " ${missing[*]-} " in *" $1 "*) ;; *) missing+=("$1") ;; esac
	case " ${programs[*]-} " in *" ${2%% (*} ("*) ;; *) programs+=("$2") ;; esac
}

check_settings
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(base build)
for g in "${groups[@]}"; do
	[ -n "${group[$g]+x}" ] || die "unknown dependency group '$g' (base build x86 arches coverage vm blktests send b4 lava check)"
	for pair in ${group[$g]}; do
		command -v "${pair%%:*}" >/dev/null 2>&1 || want "${pair#*:}" "${pair%%:*} (${why[$g]})"
	done
	for pair in ${files[$g]-}; do
		[ -e "${pair%%:*}" ] || want "${pair#*:}" "${pair%%:*} (${why[$g]})"
	done
	# optional ones only where this run installs anyway (root, apt-get)
	{ command -v apt-get && [ "$(id -u)" = 0 ] && [ -z "${BSK_NO_INSTALL:-}" ]; } >/dev/null 2>&1 || continue
	for pair in ${optional[$g]-}; do
		command -v "${pair%%:*}" >/dev/null 2>&1 || want "${pair#*:}" "${pair%%:*} (${why[$g]}, faster)"
	done
done

[ ${#missing[@]} -gt 0 ] || exit 0
command -v apt-get >/dev/null 2>&1 ||
	die "missing, and no apt-get here to install them: $(printf '%s, ' "${programs[@]}" | sed 's/, $//'); install them with this system's packages"

line="apt-get install -y --no-install-recommends ${missing[*]}"
{ [ "$(id -u)" = 0 ] && [ -z "${BSK_NO_INSTALL:-}" ]; } || die "missing Debian packages; run: sudo apt-get update && sudo $line"
info "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -q update >/dev/null || die "apt-get update failed; run: apt-get update && $line"
apt-get -q -y --no-install-recommends install "${missing[@]}" >/dev/null ||
	die "apt-get install failed; run: $line"
