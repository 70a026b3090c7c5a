# SPDX-License-Identifier: GPL-2.0
# Private apt states in the cache: Debian packages fetched from the machine's own mirror,
# signatures checked, the machine's apt state untouched.  Sourced after common.sh.
# shellcheck shell=bash

KEYRING=${BSK_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
OS_RELEASE=${BSK_OS_RELEASE:-/etc/os-release}

# the machine's apt repositories: "URI RELEASE COMPONENT"
machine_repos() {
	# shellcheck disable=SC2016 # apt format fields, not shell
	apt-get indextargets --format '$(TARGET_OF) $(IDENTIFIER) $(REPO_URI) $(RELEASE) $(COMPONENT)' |
		awk '$1 == "deb" && $2 == "Packages" { print $3, $4, $5 }' | sort -u
}

codename() {
	# shellcheck disable=SC1090
	(. "$OS_RELEASE" && printf '%s\n' "${VERSION_CODENAME:-}")
}

mirror_uri() {
	local cn mirror
	cn=$(codename)
	[ -n "$cn" ] || die "no VERSION_CODENAME in $OS_RELEASE: cannot tell which Debian release this is"
	mirror=$(machine_repos | awk -v cn="$cn" '$2 == cn { print $1; exit }')
	[ -n "$mirror" ] ||
		die "no Debian '$cn' repository in this machine's apt sources (apt-get indextargets shows none); add one to /etc/apt/sources.list.d/"
	printf '%s\n' "$mirror"
}

# new_enough PROGRAM: its --version ("0.14.2", "fio-3.41[-2-gabc]") is $MIN or later
new_enough() {
	local v
	v=$("$1" --version 2>/dev/null | head -n 1) || return 1
	v=${v#fio-}
	v=${v%%-*}
	[[ $v =~ ^[0-9]+\.[0-9]+ ]] && ver_ge "$v" "$MIN"
}

apt_opts() {
	APT_OPTS=(-o "Dir::State::Lists=$APT_DIR/lists"
		  -o "Dir::Etc::sourcelist=$APT_DIR/sources.list"
		  -o "Dir::Etc::sourceparts=$APT_DIR/sources.list.d"
		  -o "Dir::Etc::preferencesparts=$APT_DIR/preferences.d"
		  -o "Dir::Cache=$APT_DIR/cache"
		  -o "Acquire::Languages=none"
		  -o "APT::Get::List-Cleanup=false")
	# apt's _apt user may not read the user's cache
	[ "$(id -u)" != 0 ] || APT_OPTS+=(-o "APT::Sandbox::User=root")
	mkdir -p "$APT_DIR"/lists/partial "$APT_DIR"/cache/archives/partial \
		 "$APT_DIR"/sources.list.d "$APT_DIR"/preferences.d
}

# debian_apt DIR deb|deb-src SUITE: DIR/apt for Debian SUITE main, updated (DIR/update.log)
debian_apt() {
	local mirror
	APT_DIR=$1/apt
	apt_opts
	mirror=$(mirror_uri) || return 1
	printf '%s [signed-by=%s] %s %s main\n' "$2" "$KEYRING" "$mirror" "$3" >"$APT_DIR/sources.list"
	apt-get -q "${APT_OPTS[@]}" update >"$1/update.log" 2>&1
}

# debian_unpack DIR SUITE PKG...: SUITE's PKGs unpacked (never installed) under DIR/root
debian_unpack() {
	local dir=$1 suite=$2 deb
	shift 2
	debian_apt "$dir" deb "$suite" || die "apt-get update of Debian $suite for $* failed (see $dir/update.log)"
	rm -rf "$dir/dl" "$dir/root"
	mkdir -p "$dir/dl" "$dir/root"
	(cd "$dir/dl" && apt-get -q "${APT_OPTS[@]}" download "$@" >"$dir/fetch.log" 2>&1) ||
		die "apt-get download $* failed (see $dir/fetch.log)"
	for deb in "$dir"/dl/*.deb; do
		dpkg-deb -x "$deb" "$dir/root"
	done
}
