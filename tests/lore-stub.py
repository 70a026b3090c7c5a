#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lore-stub.py PORT DIR - lore on 127.0.0.1:PORT for tests/gate/send.bats' b4 prep
--manual-reroll: GET /all/<msgid>/t.mbox.gz is the mail <msgid> of DIR/**/*.eml
and those whose References name it (read at each request); anything else 404."""
import email
import gzip
import pathlib
import re
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        m = re.fullmatch(r"/all/([^/]+)/t\.mbox\.gz", urllib.parse.unquote(self.path))
        out = b""
        for p in sorted(pathlib.Path(sys.argv[2]).rglob("*.eml")) if m else []:
            raw = p.read_bytes()
            msg = email.message_from_bytes(raw)
            if (msg.get("Message-Id") or "").strip().strip("<>") == m.group(1) \
                    or f"<{m.group(1)}>" in (msg.get("References") or ""):
                body = re.sub(rb"^(>*From )", rb">\1", raw, flags=re.M)  # mboxrd
                out += b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + body.rstrip(b"\n") + b"\n\n"
        if not out:
            self.send_error(404)
            return
        data = gzip.compress(out)
        self.send_response(200)
        self.send_header("Content-Type", "application/gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, fmt, *args):
        sys.stderr.write("%s\n" % (fmt % args))


HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
