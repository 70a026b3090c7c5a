#!/usr/bin/env bats
# base.sh: the private apt state is built from the machine's own apt
# sources (no host name in the repository), and Debian's .gitignore trap.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	fake_bin
	# apt-get indextargets as a machine with a bookworm mirror answers it.
	cat >"$BATS_TEST_TMPDIR/bin/apt-get" <<'EOS'
#!/bin/sh
[ "$1" = indextargets ] || exit 1
cat <<EOT
deb Packages http://mirror.test/debian/ bookworm main
deb Packages http://mirror.test/debian/ bookworm-updates main
deb Packages http://security.test/debian-security/ bookworm-security main
deb Translations http://mirror.test/debian/ bookworm main
deb Packages http://other.test/node/ nodistro main
EOT
EOS
	chmod +x "$BATS_TEST_TMPDIR/bin/apt-get"
	printf 'ID=debian\nVERSION_CODENAME=bookworm\n' >"$BATS_TEST_TMPDIR/os-release"
	export BSK_OS_RELEASE=$BATS_TEST_TMPDIR/os-release
}

@test "mainline: unstable and stable-backports on the machine's own mirror, signed-by the keyring" {
	BASE=mainline run bash -c ". '$TOP/tools/env/base.sh'; make_sources"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.test/debian/ unstable main" ]
	[ "${lines[1]}" = "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.test/debian/ stable-backports main" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "lts: only the machine's own suites" {
	BASE=lts run bash -c ". '$TOP/tools/env/base.sh'; make_sources"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "$output" == *" http://mirror.test/debian/ bookworm main"* ]]
	[[ "$output" == *" http://mirror.test/debian/ bookworm-updates main"* ]]
	[[ "$output" == *" http://security.test/debian-security/ bookworm-security main"* ]]
	[[ "$output" != *"other.test"* ]]
	[[ "$output" != *"unstable"* ]]
}

@test "no repository for this release in the apt sources: one error line" {
	printf 'VERSION_CODENAME=trixie\n' >"$BSK_OS_RELEASE"
	BASE=mainline run bash -c ". '$TOP/tools/env/base.sh'; make_sources"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"no Debian 'trixie' repository"* ]]
}

@test "no mirror host name is written in the repository" {
	run grep -rIlE '(deb|ftp|security)\.debian\.org|mirror\.[a-z]+\.(org|net|com)' \
		"$TOP/tools" "$TOP/Makefile" "$TOP/README.md" "$TOP/docs" "$TOP/MAINTAINERS-notes" "$TOP/.ci" "$TOP/configs" "$TOP/kunit"
	[ "$status" -eq 1 ]
}

@test "the .gitignore rules Debian appends are removed, the rest kept" {
	d=$BATS_TEST_TMPDIR/src
	mkdir -p "$d"
	printf '.*\n*.o\n\n# Debian packaging\n/*\n!/debian/\n' >"$d/.gitignore"
	run bash -c ". '$TOP/tools/env/base.sh'; fix_gitignore '$d'"
	[ "$status" -eq 0 ]
	run ! grep -qx '/\*' "$d/.gitignore"
	run ! grep -qx '!/debian/' "$d/.gitignore"
	grep -qx '\*.o' "$d/.gitignore"
	mkdir -p "$d/block" && echo x >"$d/block/a.c"
	git -C "$d" init -q && git -C "$d" add -A
	git -C "$d" ls-files --cached | grep -qx block/a.c
}

@test "unknown BASE: one error line" {
	run "$TOP/tools/env/base.sh" stable
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"unknown BASE 'stable'"* ]]
}

@test "missing keyring: one error line naming the package" {
	BSK_KEYRING=$BATS_TEST_TMPDIR/none.gpg run "$TOP/tools/env/base.sh" mainline
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"apt-get install debian-archive-keyring"* ]]
}

@test "no space in the cache: one error line, nothing fetched" {
	cat >"$BATS_TEST_TMPDIR/bin/df" <<'EOS'
#!/bin/sh
printf 'Filesystem 1M-blocks Used Available Capacity Mounted\n/dev/x 100 99 1 99%% /\n'
EOS
	chmod +x "$BATS_TEST_TMPDIR/bin/df"
	run bash -c ". '$TOP/tools/lib/common.sh'; need_space 4096 '$BSK_CACHE/src'"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"not enough space"*"1 MiB free, 4096 MiB needed"* ]]
}

# An archive that has moved on: Debian offers linux-source-7.4 beside the
# pinned 7.3; "download" serves a package whose tarball is $BATS_TEST_TMPDIR/tar.
moved_archive() {
	cat >"$BATS_TEST_TMPDIR/bin/apt-get" <<'EOS'
#!/bin/sh
case " $* " in
*" indextargets"*) echo "deb Packages http://mirror.test/debian/ bookworm main" ;;
*" update"*) ;;
*" download "*)
	for a; do pv=$a; done
	echo "$pv" >>"$BATS_TEST_TMPDIR/downloads"
	d=$BATS_TEST_TMPDIR/pkg
	mkdir -p "$d/DEBIAN" "$d/usr/src"
	printf 'Package: x\nVersion: 1\nArchitecture: all\nMaintainer: t <t@t>\nDescription: t\n' >"$d/DEBIAN/control"
	cp "$BATS_TEST_TMPDIR/tar" "$d/usr/src/linux-source-7.3.tar.xz"
	dpkg-deb -b "$d" x.deb >/dev/null ;;
*) exit 1 ;;
esac
EOS
	cat >"$BATS_TEST_TMPDIR/bin/apt-cache" <<'EOS'
#!/bin/sh
case " $* " in
*" pkgnames "*) printf 'linux-source-7.3\nlinux-source-7.4\n' ;;
*" show linux-source-7.4"*) printf 'Version: 7.4.1-1\n' ;;
*" show linux-source-7.3"*) printf 'Version: 7.3.4-1~bpo13+1\n' ;;
esac
EOS
	chmod +x "$BATS_TEST_TMPDIR/bin/apt-get" "$BATS_TEST_TMPDIR/bin/apt-cache"
	export BSK_KEYRING=$BATS_TEST_TMPDIR/keyring.gpg
	touch "$BSK_KEYRING"
	mkdir -p "$BATS_TEST_TMPDIR/t/linux"
	printf 'VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 4\n' >"$BATS_TEST_TMPDIR/t/linux/Makefile"
	tar -C "$BATS_TEST_TMPDIR/t" -cJf "$BATS_TEST_TMPDIR/tar" linux
}

@test "the base is the package the series pins, not Debian's newest" {
	moved_archive
	grep -q '^# base: linux-source-7.3 7.3.4-1~bpo13+1 sha256:' "$TOP/series"
	run "$TOP/tools/env/base.sh" mainline
	[ "$(cat "$BATS_TEST_TMPDIR/downloads")" = "linux-source-7.3=7.3.4-1~bpo13+1" ]
}

@test "a tarball without the pinned sha256: one error line, no tree" {
	moved_archive
	run ! "$TOP/tools/env/base.sh" mainline
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" == *"linux-source-7.3.tar.xz does not have the sha256 series pins" ]]
	[ ! -e "$BSK_CACHE/src/mainline" ]
}

@test "newest: a series that does not apply to Debian's newest linux-source is one failing line" {
	moved_archive
	run ! "$TOP/tools/gate/newest.sh" mainline
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "the series does not apply to Debian's newest linux-source-7.4 7.4.1-1 (block-bfq-"*"); the base stays pinned at linux-source-7.3 7.3.4-1~bpo13+1" ]]
	[ "$(cat "$BATS_TEST_TMPDIR/downloads")" = "linux-source-7.4=7.4.1-1" ]
}
