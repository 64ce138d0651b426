#!/usr/bin/env python3
"""Run the documentation: every fenced block of README.md, docs/*.md and
crates/*/README.md that is a command or a program, so that a stale command
fails the test run.

The rule for doc writers is in docs/architecture.md ("Docs that run"). In
short, by the fence's language:

- ``sh`` / ``bash``: each command (a line, with its ``\\`` continuations) runs
  in bash from the repository root, in order, with an empty standard input,
  after the count rewrites of ``REWRITES`` (``--rounds 100`` runs as
  ``--rounds 2``...). A ``cargo run`` of ``tabletop-server`` is a server: it
  is started on port 0 with its database in a temporary directory, its page
  and ``/api/games`` are fetched, and it is stopped. So is a bare
  ``tabletop-server`` command, an installed server: the binary of the
  block's own ``cargo build --release -p tabletop-server`` before it (the
  cargo target directory's ``release/`` first on ``PATH``). A server
  command ending in ``&`` runs in the background until its block ends;
  then, if several run on a database URL (``TABLETOP_DATABASE=`` or
  ``--database``), a match opened through the first must be read, the
  same view, through each other (and a lobby seat opened through the
  first is listed, taken and seen taken through the others); each is
  stopped with SIGTERM and must exit 0.
- ``python``: the block runs as its own script in the project's Python (the
  one running this file, or ``--python``), so it imports what it uses.
- ``rust``: the file must be compiled as doctests (``include_str!`` into a
  crate's documentation, which ``cargo test`` runs); this checks the include.
- ``json`` / ``toml``: parsed. ``text`` (and ``console``, ``html``): shown,
  never run: a procedure that cannot run on a test machine is written there.
- anything else, a bare fence included, fails: say what the block is.

A ``cargo test ... --test NAME`` command in a shell block is the Rust tier's
(``cargo test --workspace``, which scripts/test-all.sh runs first, runs every
test target at its default counts), so it is checked, not built and run a
second time: its package and test target must exist, and every ``VAR=`` it
sets must be read by that test's sources. So is ``cargo test -p PACKAGE --lib
FILTER``: a test function of that package's sources must have the filter in
its name. ``--run-tests`` runs them anyway.

A ``cargo`` command written inline in prose or a table is not run (often
a long benchmark), but checked: its package and its bench, example, test or
bin target must exist (``cargo metadata``), so a target that moved fails.

An HTML comment on the line above a fence changes that one block, and is the
only way to: ``<!-- doc-run: replace "OLD" "NEW" (why); timeout 900 -->``. Files
that a block names and creates (``--save game.json``) are removed after it.
Two more directives are for shell blocks: ``input "LINE" "LINE"`` gives the
block's commands those lines as standard input (a password prompt reads
it: the commands run in a session of their own, without a terminal), and
``postgres`` runs the block on a fresh PostgreSQL cluster made by Debian's
tools (``pg_createcluster`` on a free port, so Debian's ``pg_hba.conf``:
peer on the local socket, scram-sha-256 over TCP; started by
``pg_ctlcluster``, dropped after with ``pg_dropcluster --stop``), with
``PGCLUSTER`` and ``PGPORT`` set to it. It needs root and Debian's
``postgresql`` package: without them the block fails and says which is
missing, or, with ``--without-postgres``, is reported as not run.

Prints one line per block, each failure with its file:line, then
``N passed, N failed``; exits 1 if anything failed.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_FILES = ["README.md", "docs/*.md", "crates/*/README.md"]

RUN_SHELL = {"sh", "bash"}
RUN_PYTHON = {"python"}
DOCTEST = {"rust"}
PARSED = {"json", "toml"}
# Deployment files (a container file, a systemd unit): parsed, and every
# option they pass to tabletop-server checked against its --help.
CONFIG = {"dockerfile", "ini"}
SHOWN = {"text", "console", "html"}

# Counts made small: (pattern, replacement), applied to every shell command.
# Only numbers are rewritten, so a flag that no longer exists still fails.
REWRITES = [
    (r"--rounds[ =]\d+", "--rounds 2"),
    (r"--games[ =]\d+", "--games 8"),
    (r"--steps[ =]\d+", "--steps 10"),
    (r"--seconds[ =][\d.]+", "--seconds 0.2"),
    (r"--repeats[ =]\d+", "--repeats 1"),
    (r"--ms-per-move[ =]\d+", "--ms-per-move 5"),
    # A measurement plays one game at a time (equal time per move on a
    # loaded machine); at a few games, whose figures nobody reads, both
    # cores play.
    (r"--threads[ =]1\b", "--threads 2"),
    (r"\bTABLETOP_LOAD_MATCHES=\d+", "TABLETOP_LOAD_MATCHES=4"),
    (r"\bHOSTILE_INPUTS=\d+", "HOSTILE_INPUTS=12"),
    (r"\bFINAL_GAMES=\d+", "FINAL_GAMES=4"),
    (r"\bCONFORMANCE_GAMES=\d+", "CONFORMANCE_GAMES=2"),
    (r"\bPROPTEST_CASES=\d+", "PROPTEST_CASES=4"),
]
# A test target's command (optional VAR=value prefixes, no other command
# chained): the Rust tier runs it; checked against the target's sources.
TEST_COMMAND = re.compile(r"^((?:[A-Z_][A-Z0-9_]*=\S+\s+)*)cargo test\b[^;&|]*\s--test[ =](\S+)[^;&|]*$")
# A unit test's command, by name filter: the Rust tier runs it too.
LIB_TEST_COMMAND = re.compile(r"^((?:[A-Z_][A-Z0-9_]*=\S+\s+)*)cargo test\b[^;&|]*\s--lib\s+(\w+)[^;&|]*$")
# A long-running command: started, probed over HTTP, stopped.
SERVER = re.compile(r"\bcargo run\b.*-p tabletop-server\b")
# A server as an operator runs it, installed from the block's own build
# (`cargo build --release -p tabletop-server ...` earlier in the block):
# the same lifecycle, the binary from the cargo target directory.
INSTALLED_SERVER = re.compile(r"^\s*(?:[A-Z_][A-Z0-9_]*=\S+\s+)*tabletop-server\b")
SERVER_BUILD = re.compile(r"^\s*cargo build\b(?=.*\s--release\b)(?=.*\s-p tabletop-server\b)")
# A server started in the background (`... &`) runs until its block ends.
BACKGROUND = re.compile(r"\s&\s*$")
# A server on a PostgreSQL database keeps its records there, not in --db.
DATABASE_URL = re.compile(r"(?:^|\s)TABLETOP_DATABASE=|\s--database\b")
SERVER_PORT = re.compile(r"--port[ =]\d+")
SERVER_DB = re.compile(r"--db[ =](\S+)")
LISTENING = re.compile(r"listening on (http://\S+)")
# Paths a command may write (records, databases, tables), removed after the
# block if it created them.
OUTPUT_FILE = re.compile(r"(?<![\w/.-])([\w.-]+\.(?:json|db|jsonl|csv|txt))\b")

COMMAND_TIMEOUT = 1200  # seconds; a cold release build fits in it
SERVER_START_TIMEOUT = 1200


class Block:
    """One fenced block of a Markdown file."""

    def __init__(self, path: pathlib.Path, line: int, lang: str, body: list[str], note: str | None):
        self.path = path
        self.line = line  # the fence's line, 1-based
        self.lang = lang
        self.body = body
        self.note = note

    @property
    def where(self) -> str:
        return self.at(self.line)

    def at(self, line: int) -> str:
        """file:line of a line of this file, from the root if inside it."""
        path = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{path}:{line}"


class DocError(Exception):
    """A block that fails, with the line to blame."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")


def parse_blocks(path: pathlib.Path, text: str | None = None) -> list[Block]:
    """The fenced blocks of a file, each with the doc-run comment above it."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        match = re.match(r"^(\s*)(```+|~~~+)\s*([^\s`]*)", lines[i])
        if not match:
            i += 1
            continue
        indent, fence, lang = match.group(1), match.group(2), match.group(3).lower()
        prev = i - 1
        while prev >= 0 and not lines[prev].strip():
            prev -= 1
        note = None
        if prev >= 0:
            comment = re.match(r"^\s*<!--\s*doc-run:(.*?)-->\s*$", lines[prev])
            if comment:
                note = comment.group(1).strip()
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence[:3]):
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        blocks.append(Block(path, i + 1, lang, body, note))
        i = j + 1
    return blocks


def parse_note(note: str | None, where: str) -> dict:
    """The directives of a doc-run comment: replace "A" "B"; timeout N;
    input "LINE"...; postgres."""
    options: dict = {"replace": [], "timeout": None, "input": None, "postgres": False}
    if not note:
        return options
    for directive in filter(None, (d.strip() for d in note.split(";"))):
        # A directive may end with its reason in parentheses, for the reader.
        words = shlex.split(re.sub(r"\s*\([^()]*\)$", "", directive))
        if words[0] == "replace" and len(words) == 3:
            options["replace"].append((words[1], words[2]))
        elif words[0] == "timeout" and len(words) == 2 and words[1].isdigit():
            options["timeout"] = int(words[1])
        elif words[0] == "input" and len(words) >= 2:
            options["input"] = "".join(line + "\n" for line in words[1:])
        elif words == ["postgres"]:
            options["postgres"] = True
        else:
            raise DocError(
                where,
                f"unknown doc-run directive {directive!r} "
                '(replace "A" "B"; timeout N; input "LINE" "LINE"; postgres)',
            )
    return options


def apply_note(block: Block, options: dict) -> str:
    text = "\n".join(block.body)
    for old, new in options["replace"]:
        if old not in text:
            raise DocError(block.where, f"doc-run: {old!r} is not in the block")
        text = text.replace(old, new)
    return text


def rewrite(command: str) -> str:
    """The command with its counts made small (REWRITES)."""
    for pattern, replacement in REWRITES:
        command = re.sub(pattern, replacement, command)
    return command


def shell_commands(block: Block, text: str) -> list[tuple[int, str]]:
    """(line number, command) of each command of a shell block."""
    commands = []
    pending, start = "", 0
    for offset, line in enumerate(text.splitlines()):
        if not pending:
            start = block.line + 1 + offset
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        commands.append((start, pending + line))
        pending = ""
    if pending:
        commands.append((start, pending))
    return commands


def environment(python: pathlib.Path) -> dict:
    env = dict(os.environ)
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("CARGO_TERM_COLOR", "never")
    return env


def tail(text: str, lines: int = 25) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines()[-lines:])


def run_command(where: str, command: str, env: dict, timeout: int, stdin: str | None = None) -> None:
    try:
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            cwd=ROOT,
            env=env,
            # An empty standard input unless the block gives one: without a
            # controlling terminal (a new session), a password prompt reads it.
            input=stdin or "",
            capture_output=True,
            text=True,
            timeout=timeout,
            start_new_session=True,
        )
    except subprocess.TimeoutExpired:
        raise DocError(where, f"timed out after {timeout} s: {command}") from None
    if done.returncode != 0:
        raise DocError(
            where, f"exit {done.returncode}: {command}\n{tail(done.stdout, 10)}\n{tail(done.stderr)}"
        )


class Server:
    """A started server command: its process, address and scratch files."""

    def __init__(self, where: str, command: str, process: subprocess.Popen, log, scratch: str):
        self.where = where
        self.command = command
        self.process = process
        self.log = log
        self.scratch = scratch
        self.address = ""
        self.stopped_log = ""

    def log_tail(self) -> str:
        self.log.seek(0)
        return tail(self.log.read())


def start_server(where: str, command: str, env: dict, timeout: int) -> Server:
    """Start a server command on port 0 (its SQLite database, if any, in a
    temporary directory), wait for its address, fetch its page and registry."""
    scratch = tempfile.mkdtemp(prefix="doc-run-server-")
    command = re.sub(r"\s#.*$", "", command)  # the comment, so that arguments can follow
    command = SERVER_PORT.sub("--port 0", command)
    if not SERVER_PORT.search(command):
        command += " --port 0"
    if not DATABASE_URL.search(command):
        database = SERVER_DB.search(command)
        name = pathlib.Path(database.group(1)).name if database else "tabletop.db"
        command = SERVER_DB.sub("", command) + f" --db {shlex.quote(os.path.join(scratch, name))}"
    log = open(os.path.join(scratch, "server.log"), "w+", encoding="utf-8")
    # exec, so that the signals reach the server; its VAR=value words stay
    # in front of it, where bash gives them to the program exec runs.
    assignments = re.match(r"\s*(?:[A-Z_][A-Z0-9_]*=\S+\s+)*", command).group(0)
    process = subprocess.Popen(
        ["bash", "-c", f"{assignments}exec {command[len(assignments):]}"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        start_new_session=True,
    )
    server = Server(where, command, process, log, scratch)
    try:
        deadline = time.monotonic() + timeout
        lines: queue.Queue = queue.Queue()
        # The server's output is read on a thread: the build before it may
        # take minutes, and the wait must still end at the deadline.
        threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
        while not server.address:
            if time.monotonic() > deadline:
                raise DocError(where, f"no 'listening on' within {timeout} s: {command}")
            try:
                found = LISTENING.search(lines.get(timeout=0.5))
            except queue.Empty:
                found = None
            if found:
                server.address = found.group(1).rstrip("/")
            elif process.poll() is not None and lines.empty():
                raise DocError(where, f"exit {process.returncode} before listening: {command}\n{server.log_tail()}")
        for route, expect in (("/", "<html"), ("/api/games", '"name"')):
            status, body = fetch(server.address + route)
            if status != 200 or expect not in body.lower():
                raise DocError(where, f"GET {route} answered {status} without {expect!r}")
    except OSError as e:
        stop_server(server)
        raise DocError(where, f"{command}: {e}") from None
    except DocError:
        stop_server(server)
        raise
    return server


def fetch(url: str, body: dict | None = None) -> tuple[int, str]:
    """(status, body) of a GET, or of a POST of `body` as JSON."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


def stop_server(server: Server) -> int:
    """SIGTERM, then SIGKILL after 20 s; its exit status."""
    process = server.process
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    server.stopped_log = server.log_tail()
    server.log.close()
    shutil.rmtree(server.scratch, ignore_errors=True)
    return process.returncode


def run_server(where: str, command: str, env: dict, timeout: int) -> None:
    """A server in the foreground (it would hold the shell): started,
    probed, stopped."""
    stop_server(start_server(where, command, env, timeout))


def check_shared_database(where: str, servers: list[Server]) -> None:
    """Servers on one database serve one set of matches and one lobby: a
    match opened through the first is read, the same, through each other
    one; a seat opened in the first's lobby is listed by the last and
    taken through it, and the first then shows it taken."""
    first = servers[0]
    status, body = fetch(first.address + "/api/games")
    game = json.loads(body)["games"][0]["name"]
    status, body = fetch(first.address + "/api/matches", {"game": game, "seats": ["human", "human"], "seed": 7})
    if status != 201:
        raise DocError(where, f"POST /api/matches of {game} through {first.address} answered {status}: {body[:300]}")
    match = json.loads(body)["id"]
    status, body = fetch(f"{first.address}/api/matches/{match}")
    view = json.loads(body)
    for other in servers[1:]:
        answer, body = fetch(f"{other.address}/api/matches/{match}")
        seen = json.loads(body) if answer == 200 else {}
        differ = sorted(k for k in view.keys() | seen.keys() if view.get(k) != seen.get(k))
        if answer != 200 or differ:
            raise DocError(
                where,
                f"match {match} opened through {first.address} is not the same through {other.address} "
                f"({answer}; differ: {', '.join(differ)}): {body[:300]}",
            )
    last = servers[-1]
    status, body = fetch(first.address + "/api/lobby", {"game": game, "seat": 0, "listed": True})
    if status != 201:
        raise DocError(where, f"POST /api/lobby through {first.address} answered {status}: {body[:300]}")
    seat = json.loads(body)["id"]
    status, body = fetch(last.address + "/api/lobby")
    if seat not in [o["id"] for o in json.loads(body).get("open", [])]:
        raise DocError(where, f"the seat opened through {first.address} is not listed by {last.address}: {body[:300]}")
    status, body = fetch(f"{last.address}/api/matches/{seat}/join", {})
    if status != 200:
        raise DocError(where, f"joining {seat} through {last.address} answered {status}: {body[:300]}")
    for _ in range(100):
        status, body = fetch(f"{first.address}/api/matches/{seat}")
        if json.loads(body).get("waiting", 0) is None:
            break
        time.sleep(0.05)
    else:
        raise DocError(where, f"{first.address} still shows match {seat} waiting after its join: {body[:300]}")


# The key of a package's library target in test_sources(): no target can
# be named so.
LIB = "<lib>"


def test_sources() -> dict:
    """{(package, test name): the test's source directory or file}, and
    {(package, LIB): its library's root file}."""
    done = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    return {
        (p["name"], LIB if "lib" in t["kind"] else t["name"]): pathlib.Path(t["src_path"])
        for p in json.loads(done.stdout)["packages"]
        for t in p["targets"]
        if "test" in t["kind"] or "lib" in t["kind"]
    }


def check_test_command(where: str, command: str, cargo: tuple) -> bool:
    """Whether `command` is a test target's, checked (True), or to run."""
    found = TEST_COMMAND.match(command.strip())
    unit = LIB_TEST_COMMAND.match(command.strip())
    if not (found or unit) or RUN_TESTS:
        return False
    packages, root, sources = cargo
    check_cargo_command(where, command, packages, root)
    words = command.split(" -- ")[0].split()
    package = next((v for f, v in zip(words, words[1:]) if f in ("-p", "--package")), root)
    if unit:
        return check_unit_test(where, command, package, unit, sources)
    source = sources.get((package, found.group(2)))
    if source is None:
        raise DocError(where, f"no test {found.group(2)!r} in {package}: {command}")
    files = sorted(source.parent.rglob("*.rs")) if source.name == "main.rs" else [source]
    # A test's own module directory (tests/NAME/) is part of it as well.
    files += sorted((source.parent / source.stem).rglob("*.rs"))
    text = "".join(f.read_text(encoding="utf-8") for f in files)
    for var in re.findall(r"([A-Z_][A-Z0-9_]*)=", found.group(1)):
        if f'"{var}"' not in text:
            raise DocError(where, f"{var} is not read by the test {found.group(2)} ({source.relative_to(ROOT)}): {command}")
    return True


def check_unit_test(where: str, command: str, package: str, found: re.Match, sources: dict) -> bool:
    """A `--lib FILTER` command: some test function of the package's
    library has the filter in its name, and reads every `VAR=` it sets."""
    library = sources.get((package, LIB))
    if library is None:
        raise DocError(where, f"package {package} has no library: {command}")
    filter_ = found.group(2)
    for path in sorted(library.parent.rglob("*.rs")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"#\[test\]\s*(?:#\[[^\]]*\]\s*)*fn\s+\w*" + re.escape(filter_), text):
            for var in re.findall(r"([A-Z_][A-Z0-9_]*)=", found.group(1)):
                if f'"{var}"' not in text:
                    raise DocError(where, f"{var} is not read by {path.relative_to(ROOT)}: {command}")
            return True
    raise DocError(where, f"no test function of {package} has {filter_!r} in its name: {command}")


RUN_TESTS = False
CARGO_TESTS: tuple | None = None


class NotRunnable(Exception):
    """A block this machine cannot run (no root, no PostgreSQL), and why."""


WITHOUT_POSTGRES = False


def postgres_tools() -> str:
    """The newest PostgreSQL version of Debian's packages, or NotRunnable
    with what is missing."""
    missing = []
    if os.geteuid() != 0:
        missing.append("root (Debian's cluster tools and runuser -u postgres)")
    versions = sorted(
        (p.parent.parent.name for p in pathlib.Path("/usr/lib/postgresql").glob("*/bin/postgres")),
        key=lambda v: [int(n) for n in re.findall(r"\d+", v)],
    )
    if not versions:
        missing.append("Debian's PostgreSQL server (apt-get install postgresql)")
    for tool in ("pg_createcluster", "pg_ctlcluster", "pg_dropcluster", "runuser"):
        if shutil.which(tool) is None:
            missing.append(tool)
    if missing:
        raise NotRunnable("needs " + ", ".join(missing))
    return versions[-1]


def free_port() -> int:
    """A TCP port of 127.0.0.1 nothing listens on and no cluster is given,
    from PostgreSQL's own 5432 up."""
    import socket

    taken = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True).stdout
    given = {int(line.split()[2]) for line in taken.splitlines() if len(line.split()) > 2}
    for port in range(5432, 5532):
        if port in given:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise NotRunnable("no free port for a PostgreSQL cluster in 5432..5531")


@contextmanager
def postgres_cluster(where: str):
    """A fresh cluster of Debian's tooling (its pg_hba.conf: peer on the
    local socket, scram-sha-256 over TCP), its own name and port, dropped
    after: the environment that points PostgreSQL's clients at it."""
    version = postgres_tools()
    name, port = f"doc-run-{os.getpid()}", free_port()

    def tool(*args: str) -> None:
        done = subprocess.run(list(args), capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise DocError(where, f"exit {done.returncode}: {' '.join(args)}\n{tail(done.stdout, 10)}\n{tail(done.stderr)}")

    # initdb's --no-sync: a cluster dropped within the minute needs no
    # flush to disk (3 of its 5 s); its authentication is Debian's all the same.
    tool("pg_createcluster", version, name, "--port", str(port), "--", "--no-sync")
    try:
        # Started by pg_ctl itself: a CI machine has no systemd to hand it to.
        tool("pg_ctlcluster", "--skip-systemctl-redirect", version, name, "start")
        yield {"PGCLUSTER": f"{version}/{name}", "PGPORT": str(port)}
    finally:
        tool("pg_dropcluster", "--stop", version, name)


_target_dir: list[pathlib.Path] = []


def target_directory() -> pathlib.Path:
    if not _target_dir:
        done = subprocess.run(
            ["cargo", "metadata", "--no-deps", "--format-version", "1"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )
        _target_dir.append(pathlib.Path(json.loads(done.stdout)["target_directory"]))
    return _target_dir[0]


def run_shell(block: Block, text: str, env: dict, timeout: int, options: dict) -> str:
    if not options["postgres"]:
        return run_commands(block, text, env, timeout, options)
    with postgres_cluster(block.where) as cluster:
        said = run_commands(block, text, {**env, **cluster}, timeout, options)
    return f"{said}, on a fresh PostgreSQL cluster (port {cluster['PGPORT']}, dropped)"


def run_commands(block: Block, text: str, env: dict, timeout: int, options: dict) -> str:
    global CARGO_TESTS
    commands = shell_commands(block, text)
    if not commands:
        raise DocError(block.where, "an empty shell block")
    created = [p for p in {ROOT / m for m in OUTPUT_FILE.findall(text)} if not p.exists()]
    checked = 0
    built = False
    background: list[Server] = []
    stopped_badly = []
    try:
        for line, command in commands:
            where = block.at(line)
            command = rewrite(command)
            if (TEST_COMMAND.match(command.strip()) or LIB_TEST_COMMAND.match(command.strip())) and not RUN_TESTS:
                if CARGO_TESTS is None:
                    CARGO_TESTS = (*cargo_targets(), test_sources())
                checked += check_test_command(where, command, CARGO_TESTS)
            elif SERVER.search(command) or INSTALLED_SERVER.match(command):
                server_env = env
                if INSTALLED_SERVER.match(command):
                    if not built:
                        raise DocError(where, f"no `cargo build --release -p tabletop-server` before it in the block: {command}")
                    release = target_directory() / "release"
                    server_env = {**env, "PATH": f"{release}{os.pathsep}{env.get('PATH', '')}"}
                if BACKGROUND.search(command):
                    background.append(start_server(where, BACKGROUND.sub("", command), server_env, timeout))
                else:
                    run_server(where, command, server_env, timeout)
            else:
                run_command(where, command, env, timeout, options["input"])
                built = built or bool(SERVER_BUILD.search(command))
        shared = [s for s in background if DATABASE_URL.search(s.command)]
        if len(shared) > 1:
            check_shared_database(block.where, shared)
    finally:
        for server in background:
            code = stop_server(server)
            if code != 0:
                stopped_badly.append(f"{server.where}: exit {code} on SIGTERM (0 expected): {server.command}\n{server.stopped_log}")
        for path in created:
            for leftover in path.parent.glob(path.name + "*"):
                leftover.unlink()
    if stopped_badly:
        raise DocError(block.where, "\n".join(stopped_badly))
    ran = len(commands) - checked
    said = f"{ran} command{'s' if ran != 1 else ''}"
    if background:
        said += f", {len(background)} servers started in the background and stopped"
        if len(shared) > 1:
            said += " (a match opened through the first read through each other, a lobby seat opened there joined through the last)"
    if checked:
        said += f", {checked} test command{'s' if checked > 1 else ''} of the Rust tier checked (cargo test --workspace runs it)"
    return said


def run_python(block: Block, text: str, python: pathlib.Path, env: dict, timeout: int) -> str:
    name = f"{block.path.stem}_{block.line}.py"
    with tempfile.TemporaryDirectory(prefix="doc-run-python-") as scratch:
        script = pathlib.Path(scratch) / name
        script.write_text(text + "\n", encoding="utf-8")
        try:
            done = subprocess.run(
                [str(python), str(script)],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            raise DocError(block.where, f"timed out after {timeout} s") from None
    if done.returncode != 0:
        raise DocError(block.where, f"python exit {done.returncode}\n{tail(done.stderr)}")
    return "python"


def doctest_crate(path: pathlib.Path) -> pathlib.Path | None:
    """The lib.rs that includes this Markdown file as documentation."""
    candidates = [path.parent / "src" / "lib.rs", ROOT / "src" / "lib.rs"]
    for lib in candidates:
        if lib.exists():
            relative = os.path.relpath(path, lib.parent)
            if re.search(r"include_str!\(\s*\"" + re.escape(relative) + r"\"\s*\)", lib.read_text(encoding="utf-8")):
                return lib
    return None


def check_doctest(block: Block) -> str:
    lib = doctest_crate(block.path)
    if lib is None:
        raise DocError(
            block.where,
            "a rust block in a file no crate includes as documentation: add "
            f'#[doc = include_str!("...{block.path.name}")] so that cargo test compiles it',
        )
    return f"doctest of {lib.relative_to(ROOT)} (cargo test runs it)"


def check_parsed(block: Block, text: str) -> str:
    if block.lang == "json":
        decoder, rest = json.JSONDecoder(), text.strip()
        while rest:
            try:
                _, end = decoder.raw_decode(rest)
            except json.JSONDecodeError as e:
                raise DocError(block.where, f"not JSON: {e}") from None
            rest = rest[end:].strip()
        return "json parsed"
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11: the block is only shown
        return "toml (not parsed: Python < 3.11)"
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DocError(block.where, f"not TOML: {e}") from None
    return "toml parsed"


DOCKERFILE_INSTRUCTIONS = {
    "ADD", "ARG", "CMD", "COPY", "ENTRYPOINT", "ENV", "EXPOSE", "FROM", "HEALTHCHECK",
    "LABEL", "ONBUILD", "RUN", "SHELL", "STOPSIGNAL", "USER", "VOLUME", "WORKDIR",
}
_server_help: list[str] = []


def server_options() -> str:
    """tabletop-server's --help: of the binary ``$TABLETOP_SERVER_BIN`` when
    set, else built once (at the release profile, which every other server
    command of the docs builds: a debug build of the server only for its
    --help took two minutes of CI).

    scripts/test-all.sh sets it to the server its one build made: the
    Python tests run beside ``cargo test``, and a build of the server at its
    default features would replace, in the middle of the server's own tests,
    the binary they start (CI's failure of 2026-12-07: the PostgreSQL tests
    started a server built without PostgreSQL)."""
    if not _server_help:
        built = os.environ.get("TABLETOP_SERVER_BIN")
        command = [built] if built else ["cargo", "run", "--release", "-q", "-p", "tabletop-server", "--"]
        try:
            out = subprocess.run(
                [*command, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=COMMAND_TIMEOUT,
            )
        except OSError as e:
            raise DocError("tabletop-server --help", f"TABLETOP_SERVER_BIN={built}: {e}") from None
        if out.returncode != 0:
            raise DocError("tabletop-server --help", out.stderr[-2000:])
        _server_help.append(out.stdout)
    return _server_help[0]


def check_config(block: Block, text: str) -> str:
    if block.lang == "ini":
        import configparser

        try:
            configparser.ConfigParser(interpolation=None, strict=True).read_string(text)
        except configparser.Error as e:
            raise DocError(block.where, f"not an INI file: {e}") from None
    else:
        continued = False
        for line in text.splitlines():
            stripped = line.strip()
            if not continued and stripped and not stripped.startswith("#"):
                word = stripped.split()[0].upper()
                if word not in DOCKERFILE_INSTRUCTIONS:
                    raise DocError(block.where, f"{word!r} is no Dockerfile instruction")
            continued = stripped.endswith("\\")
    # The options of each command line that runs the server: what follows
    # its name on the (continued) line.
    for line in text.replace("\\\n", " ").splitlines():
        if "tabletop-server" not in line:
            continue
        args = line.rsplit("tabletop-server", 1)[1]
        known = set(re.findall(r"--[a-z][a-z-]*", server_options()))
        for flag in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", args))):
            if flag not in known:
                raise DocError(block.where, f"tabletop-server has no option {flag}")
    return f"{block.lang} parsed, server options checked"


def run_block(block: Block, python: pathlib.Path, env: dict) -> str | None:
    """Runs or checks one block: a description, None if it is only shown."""
    options = parse_note(block.note, block.where)
    timeout = options["timeout"] or COMMAND_TIMEOUT
    text = apply_note(block, options)
    if block.lang in SHOWN:
        if block.note:
            raise DocError(block.where, f"a doc-run comment on a {block.lang} block, which never runs")
        return None
    if (options["input"] or options["postgres"]) and block.lang not in RUN_SHELL:
        raise DocError(block.where, f"doc-run input and postgres are for shell blocks, not {block.lang}")
    if block.lang in RUN_SHELL:
        return run_shell(block, text, env, timeout, options)
    if block.lang in RUN_PYTHON:
        return run_python(block, text, python, env, timeout)
    if block.lang in DOCTEST:
        return check_doctest(block)
    if block.lang in PARSED:
        return check_parsed(block, text)
    if block.lang in CONFIG:
        return check_config(block, text)
    known = sorted(RUN_SHELL | RUN_PYTHON | DOCTEST | PARSED | CONFIG | SHOWN)
    raise DocError(
        block.where,
        f"fence language {block.lang or '(none)'!r}: write one of {', '.join(known)} "
        "(text for what is only shown, such as a procedure a test machine cannot run)",
    )


INLINE_CODE = re.compile(r"``?([^`\n]+?)``?")
CARGO_CHECKED = {"run", "build", "test", "bench", "check", "clippy", "rustc", "doc"}
TARGET_FLAGS = {"--bench": "bench", "--example": "example", "--test": "test", "--bin": "bin"}


def cargo_targets() -> tuple[dict, str]:
    """{package: {(kind, name)}} of the workspace, and the root package."""
    done = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    metadata = json.loads(done.stdout)
    packages = {
        p["name"]: {(kind, t["name"]) for t in p["targets"] for kind in t["kind"]}
        for p in metadata["packages"]
    }
    root = next(
        (p["name"] for p in metadata["packages"] if pathlib.Path(p["manifest_path"]).parent == ROOT), ""
    )
    return packages, root


def inline_cargo_commands(path: pathlib.Path) -> list[tuple[int, str]]:
    """(line, command) of each inline `cargo ...` span outside fenced blocks."""
    found = []
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for span in INLINE_CODE.findall(line):
            words = span.split()
            while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
                words = words[1:]
            if len(words) >= 2 and words[0] == "cargo" and words[1] in CARGO_CHECKED:
                found.append((number, span))
    return found


def placeholder(word: str) -> bool:
    return any(c in word for c in "<>[].") or word.isupper()


def check_cargo_command(where: str, command: str, packages: dict, root: str) -> None:
    """The package and targets a cargo command names exist."""
    words = command.split("&&")[0].split()
    words = words[: words.index("--")] if "--" in words else words
    package = root
    targets = []
    for flag, value in zip(words, words[1:] + [""]):
        if flag in ("-p", "--package"):
            package = value
        elif flag in TARGET_FLAGS and value and not value.startswith("-"):
            targets.append((TARGET_FLAGS[flag], value))
    if placeholder(package):
        return
    if package not in packages:
        raise DocError(where, f"no package {package!r} in the workspace: {command}")
    for kind, name in targets:
        if not placeholder(name) and (kind, name) not in packages[package]:
            owners = sorted(p for p, t in packages.items() if (kind, name) in t)
            hint = f" (it is in {', '.join(owners)})" if owners else ""
            raise DocError(where, f"package {package} has no {kind} {name!r}{hint}: {command}")


def files(patterns: list[str]) -> list[pathlib.Path]:
    found: list[pathlib.Path] = []
    for pattern in patterns:
        matches = sorted(ROOT.glob(pattern)) if any(c in pattern for c in "*?[") else [ROOT / pattern]
        if not matches or not all(m.is_file() for m in matches):
            raise SystemExit(f"run_docs: no such file: {pattern}")
        found.extend(m.resolve() for m in matches if m.resolve() not in found)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help=f"Markdown files or globs, from the root (default: {' '.join(DEFAULT_FILES)})")
    parser.add_argument("--python", default=sys.executable, help="the Python of python blocks, with tabletop installed (default: this one)")
    parser.add_argument("--lang", action="append", help="only the blocks of this fence language (repeatable)")
    parser.add_argument("--list", action="store_true", help="print what would run, after the rewrites, and run nothing")
    parser.add_argument("--without-postgres", action="store_true", help="report a `postgres` block as not run on a machine without root or Debian's PostgreSQL (without it, it fails there)")
    parser.add_argument("--run-tests", action="store_true", help="run `cargo test ... --test NAME` commands too (the Rust tier runs them)")
    args = parser.parse_args(argv)
    global RUN_TESTS, WITHOUT_POSTGRES
    RUN_TESTS = args.run_tests
    WITHOUT_POSTGRES = args.without_postgres
    python = pathlib.Path(args.python)
    if not python.is_absolute():
        python = pathlib.Path.cwd() / python  # not resolved: a venv's python is a symlink
    env = environment(python)
    passed = failed = shown = not_run = 0
    cargo = None
    for path in files(args.files or DEFAULT_FILES):
        for block in parse_blocks(path):
            if args.lang and block.lang not in args.lang:
                continue
            if args.list:
                print(f"{block.where} {block.lang or '(none)'}{' [' + block.note + ']' if block.note else ''}")
                if block.lang in RUN_SHELL:
                    text = apply_note(block, parse_note(block.note, block.where))
                    for line, command in shell_commands(block, text):
                        print(f"  {line}: {rewrite(command)}")
                continue
            started = time.monotonic()
            try:
                what = run_block(block, python, env)
            except DocError as e:
                failed += 1
                print(f"FAIL {e}", flush=True)
                continue
            except NotRunnable as e:
                if WITHOUT_POSTGRES:
                    not_run += 1
                    print(f"not run {block.where} {block.lang}: {e} (--without-postgres)", flush=True)
                else:
                    failed += 1
                    print(f"FAIL {block.where}: {e} (a machine without them: --without-postgres)", flush=True)
                continue
            if what is None:
                shown += 1
                continue
            passed += 1
            print(f"ok   {block.where} {block.lang}: {what} ({time.monotonic() - started:.1f} s)", flush=True)
        inline = inline_cargo_commands(path)
        if inline and not args.list and not args.lang:
            if cargo is None:
                cargo = cargo_targets()
            where = f"{path.relative_to(ROOT)}"
            errors = []
            for line, command in inline:
                try:
                    check_cargo_command(f"{where}:{line}", command, *cargo)
                except DocError as e:
                    errors.append(str(e))
            for error in errors:
                print(f"FAIL {error}", flush=True)
            failed += len(errors)
            passed += len(inline) - len(errors)
            print(f"ok   {where}: {len(inline) - len(errors)} of {len(inline)} inline cargo commands name existing targets", flush=True)
    if args.list:
        return 0
    print(f"({shown} blocks only shown: text, console, html)")
    if not_run:
        print(f"({not_run} PostgreSQL blocks not run: --without-postgres)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
