# SPDX-License-Identifier: GPL-2.0
# S3 of 'make bench' (many small files): its device and its ext4 image,
# for tools/bench.sh and tools/s3-trace.sh.  Sourced after common.sh.
# shellcheck shell=bash
# shellcheck disable=SC2034 # used by the scripts that source this
S3_CMDLINE="scsi_debug.dev_size_mb=384 scsi_debug.max_queue=64 scsi_debug.ndelay=5000000 scsi_debug.submit_queues=1"

# s3_image: the ext4 image of the files tools/vm/s3.fio lays out, made once per job file
s3_image() {
	local job=$BSK_TOP/tools/vm/s3.fio f src
	f=$BSK_CACHE/bench/s3-$(sha1sum "$job" | cut -c1-12).img
	[ -f "$f" ] && { printf '%s\n' "$f"; return; }
	src=$BSK_CACHE/bench/s3src
	rm -rf "$src"
	mkdir -p "$src"
	S3_DIR=$src S3_CREATE=1 fio --output=/dev/null "$job" >&2
	mkfs.ext4 -q -F -d "$src" "$f.tmp" 160M >&2
	mv "$f.tmp" "$f"
	rm -rf "$src"
	printf '%s\n' "$f"
}
