# SPDX-License-Identifier: GPL-2.0
# Private apt states for the tools: Debian packages found and fetched
# without touching the machine's own apt state, from the mirror the
# machine's apt configuration names (read at run time, never written
# down), signatures checked against the Debian archive keyring.  Used by
# env/base.sh (the kernel bases), gate/sparse.sh and env/vng.sh (packages
# only Debian unstable has).  Sourced, never executed; needs common.sh.
# shellcheck shell=bash

KEYRING=${BSK_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
OS_RELEASE=${BSK_OS_RELEASE:-/etc/os-release}

# The machine's apt repositories: "URI RELEASE COMPONENT", deb Packages only.
machine_repos() {
	# shellcheck disable=SC2016 # apt format fields, not shell
	apt-get indextargets --format '$(TARGET_OF) $(IDENTIFIER) $(REPO_URI) $(RELEASE) $(COMPONENT)' |
		awk '$1 == "deb" && $2 == "Packages" { print $3, $4, $5 }' | sort -u
}

codename() {
	# shellcheck disable=SC1090
	(. "$OS_RELEASE" && printf '%s\n' "${VERSION_CODENAME:-}")
}

# The mirror serving this machine's own Debian release.
mirror_uri() {
	local cn mirror
	cn=$(codename)
	[ -n "$cn" ] || die "no VERSION_CODENAME in $OS_RELEASE: cannot tell which Debian release this is"
	mirror=$(machine_repos | awk -v cn="$cn" '$2 == cn { print $1; exit }')
	[ -n "$mirror" ] ||
		die "no Debian '$cn' repository in this machine's apt sources (apt-get indextargets shows none); add one to /etc/apt/sources.list.d/"
	printf '%s\n' "$mirror"
}

# apt options for the private state in $APT_DIR, in APT_OPTS.
apt_opts() {
	APT_OPTS=(-o "Dir::State::Lists=$APT_DIR/lists"
		  -o "Dir::Etc::sourcelist=$APT_DIR/sources.list"
		  -o "Dir::Etc::sourceparts=$APT_DIR/sources.list.d"
		  -o "Dir::Etc::preferencesparts=$APT_DIR/preferences.d"
		  -o "Dir::Cache=$APT_DIR/cache"
		  -o "Acquire::Languages=none"
		  -o "APT::Get::List-Cleanup=false")
	# The private state lives in the user's cache, which apt's _apt user
	# may not be able to read; download as the calling user instead.
	[ "$(id -u)" != 0 ] || APT_OPTS+=(-o "APT::Sandbox::User=root")
	mkdir -p "$APT_DIR"/lists/partial "$APT_DIR"/cache/archives/partial \
		 "$APT_DIR"/sources.list.d "$APT_DIR"/preferences.d
}

# unstable_apt DIR deb|deb-src: a private apt state in DIR/apt for Debian
# unstable main on the machine's own mirror (signatures checked against
# the archive keyring), updated (log: DIR/update.log).  For a package
# that only unstable has (sparse.sh, vng.sh).
unstable_apt() {
	local mirror
	APT_DIR=$1/apt
	apt_opts
	mirror=$(mirror_uri) || return 1
	printf '%s [signed-by=%s] %s unstable main\n' "$2" "$KEYRING" "$mirror" >"$APT_DIR/sources.list"
	apt-get -q "${APT_OPTS[@]}" update >"$1/update.log" 2>&1
}
