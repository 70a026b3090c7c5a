#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lore-stub.py PORT DIR - a stand-in for a public-inbox archive on
127.0.0.1:PORT, holding the mails (*.eml) under DIR, for the send check
(tools/gate/sendcheck.sh): what b4 asks lore for once a thread was sent.

  GET  /all/<msgid>/t.mbox.gz    the thread: the mail <msgid> and every
                                 mail whose References name it (b4 prep
                                 --manual-reroll, --check-deps)
  POST /all/?x=m&q=nq:"change-id:ID"
                                 the mails whose text has the line
                                 "change-id: ID" (b4 prep --check-deps)

Anything else is 404.  The mails are read at each request, so mails
written after the start are served too."""
import email
import email.policy
import gzip
import pathlib
import re
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer

TOP = pathlib.Path(sys.argv[2])


def mails():
    for p in sorted(TOP.rglob("*.eml")):
        raw = p.read_bytes()
        yield raw, email.message_from_bytes(raw, policy=email.policy.default)


def msgid(m):
    return (m.get("Message-Id") or "").strip().strip("<>")


def mbox(raws):
    out = b""
    for raw in raws:
        body = re.sub(rb"^(>*From )", rb">\1", raw, flags=re.M)
        out += b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + body.rstrip(b"\n") + b"\n\n"
    return gzip.compress(out)


class Handler(BaseHTTPRequestHandler):
    def reply(self, raws):
        if not raws:
            self.send_error(404)
            return
        data = mbox(raws)
        self.send_response(200)
        self.send_header("Content-Type", "application/gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        m = re.fullmatch(r"/all/([^/]+)/t\.mbox\.gz", urllib.parse.unquote(self.path))
        if not m:
            self.send_error(404)
            return
        want = m.group(1)
        self.reply([raw for raw, msg in mails()
                    if msgid(msg) == want or f"<{want}>" in (msg.get("References") or "")])

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query).get("q", [""])[0]
        m = re.fullmatch(r'nq:"change-id:([^"]+)"', q)
        if url.path.rstrip("/") != "/all" or not m:
            self.send_error(404)
            return
        line = re.compile(rf"^change-id: {re.escape(m.group(1))}$", re.M)
        self.reply([raw for raw, msg in mails()
                    if line.search(msg.get_body(("plain",)).get_content())])

    def log_message(self, fmt, *args):
        sys.stderr.write("%s\n" % (fmt % args))


HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
