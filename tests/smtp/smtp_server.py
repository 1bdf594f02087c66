#!/usr/bin/python3
"""A real SMTP server for longread's tests, on Debian's python3-aiosmtpd.

Every accepted message is stored as a file (one per recipient) in --maildir: NNNNNN-<rcpt>.eml, written
to a temporary name and renamed, so a reader never sees half a message. Prints "listening PORT" once bound.

  /usr/bin/python3 smtp_server.py --maildir DIR [--port 0] [--reject ADDR=CODE ...]
                                  [--tempfail-once ADDR ...] [--delay SECONDS]

--reject answers RCPT TO for ADDR with CODE (e.g. 550 or 451) every time; --tempfail-once answers 451
the first time only; --delay waits before accepting each message's data (for the kill -9 test).

Every RCPT TO is also logged, "CODE ADDRESS" per line, to DIR/.rcpt-log (a dot name: not a message), so a
test can tell how often a sender tried an address and what it was answered.
"""
import argparse
import asyncio
import itertools
import os
import sys

from aiosmtpd.smtp import SMTP


class Handler:
    def __init__(self, maildir, reject, tempfail_once, delay):
        self.maildir = maildir
        self.reject = reject
        self.tempfail_once = set(tempfail_once)
        self.delay = delay
        self.counter = itertools.count(1)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        reply = self.rcpt_reply(envelope, address)
        with open(os.path.join(self.maildir, ".rcpt-log"), "a") as log:
            log.write(f"{reply[:3]} {address}\n")
        return reply

    def rcpt_reply(self, envelope, address):
        code = self.reject.get(address.lower())
        if code is not None:
            return f"{code} {'mailbox unavailable' if code.startswith('5') else 'try again later'}"
        if address.lower() in self.tempfail_once:
            self.tempfail_once.discard(address.lower())
            return "451 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            await asyncio.sleep(self.delay)
        for rcpt in envelope.rcpt_tos:
            n = next(self.counter)
            name = f"{n:06d}-{rcpt}.eml"
            tmp = os.path.join(self.maildir, "." + name + ".tmp")
            with open(tmp, "wb") as f:
                f.write(f"X-Envelope-From: {envelope.mail_from}\r\n".encode())
                f.write(envelope.original_content or envelope.content)
            os.rename(tmp, os.path.join(self.maildir, name))
        return "250 Message accepted for delivery"


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--reject", action="append", default=[])
    parser.add_argument("--tempfail-once", action="append", default=[])
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    os.makedirs(args.maildir, exist_ok=True)
    reject = {}
    for item in args.reject:
        address, code = item.rsplit("=", 1)
        reject[address.lower()] = code
    handler = Handler(args.maildir, reject, [a.lower() for a in args.tempfail_once], args.delay)
    loop = asyncio.get_running_loop()
    # decode_data=False keeps the message bytes as sent (UTF-8 bodies, 8BITMIME).
    server = await loop.create_server(
        lambda: SMTP(handler, enable_SMTPUTF8=True, decode_data=False, hostname="smtp.test"),
        host="127.0.0.1", port=args.port)
    port = server.sockets[0].getsockname()[1]
    print(f"listening {port}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
