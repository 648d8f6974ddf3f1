"""A small GTP controller: talk to an engine (GNU Go, Gorilla, ...) in a subprocess."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence


class GtpClientError(RuntimeError):
    """The engine died or broke the protocol."""


class GtpClient:
    """Send GTP commands to a subprocess and read its responses.

    ``send`` returns ``(ok, text)``: ok is False for a ``?`` response;
    ``command`` returns the text and raises :class:`GtpClientError` on failure.
    """

    def __init__(self, argv: Sequence[str], *, stderr: int | None = subprocess.DEVNULL) -> None:
        self.argv = list(argv)
        self.proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            bufsize=0,
        )
        self._next_id = 1

    def send_raw(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise GtpClientError(f"{self.argv[0]}: cannot write: {e}") from None

    def read_response(self) -> tuple[bool, str, str]:
        """(ok, id, text) of the next response (lines up to the empty line)."""
        assert self.proc.stdout is not None
        lines: list[str] = []
        while True:
            raw = self.proc.stdout.readline()
            if not raw:
                raise GtpClientError(f"{self.argv[0]}: engine closed its output")
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if not line.strip():
                if lines:
                    break
                continue
            lines.append(line)
        head = lines[0]
        if head[:1] not in ("=", "?"):
            raise GtpClientError(f"{self.argv[0]}: bad response {head!r}")
        status, _, rest = head.partition(" ")
        text = "\n".join([rest, *lines[1:]]).strip()
        return head[0] == "=", status[1:], text

    def send(self, command: str) -> tuple[bool, str]:
        """Send one command with a fresh id; (ok, text) of its response."""
        cid = self._next_id
        self._next_id += 1
        self.send_raw(f"{cid} {command}\n".encode())
        ok, rid, text = self.read_response()
        if rid != str(cid):
            raise GtpClientError(f"{self.argv[0]}: response id {rid!r} for command id {cid}")
        return ok, text

    def command(self, command: str) -> str:
        ok, text = self.send(command)
        if not ok:
            raise GtpClientError(f"{self.argv[0]}: '{command}' failed: {text}")
        return text

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send_raw(b"quit\n")
                self.proc.stdin.close()  # type: ignore[union-attr]
                self.proc.wait(timeout=5)
            except (GtpClientError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> GtpClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
