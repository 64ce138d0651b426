"""The harness that runs the documentation (scripts/run_docs.py): its rule
for each fence, the count rewrites, the doc-run comments, and that a
failing block is named by its file and line."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("run_docs", ROOT / "scripts" / "run_docs.py")
run_docs = importlib.util.module_from_spec(_spec)
sys.modules["run_docs"] = run_docs
_spec.loader.exec_module(run_docs)

PYTHON = pathlib.Path(sys.executable)
ENV = run_docs.environment(PYTHON)


def _blocks(tmp_path: pathlib.Path, text: str) -> list:
    doc = tmp_path / "doc.md"
    doc.write_text(text)
    return run_docs.parse_blocks(doc)


def _run(block):
    return run_docs.run_block(block, PYTHON, ENV)


def test_fences_are_read_with_their_language_line_and_comment(tmp_path):
    blocks = _blocks(
        tmp_path,
        "# Doc\n\n```sh\necho one\n```\n\n<!-- doc-run: timeout 5 (short) -->\n\n```python\nprint(2)\n```\n",
    )
    assert [(b.lang, b.line, b.note) for b in blocks] == [
        ("sh", 3, None),
        ("python", 9, "timeout 5 (short)"),
    ]
    assert blocks[1].body == ["print(2)"]


def test_counts_are_rewritten_small_and_only_numbers():
    assert run_docs.rewrite("arena -- --rounds 200 --seed 7") == "arena -- --rounds 2 --seed 7"
    assert run_docs.rewrite("train_loop -- stratego --games 1024 --steps 200") == (
        "train_loop -- stratego --games 8 --steps 10"
    )
    assert run_docs.rewrite("ray_arena.py --games kuhn_poker") == "ray_arena.py --games kuhn_poker"
    assert run_docs.rewrite("TABLETOP_LOAD_MATCHES=200 cargo test") == "TABLETOP_LOAD_MATCHES=4 cargo test"


def test_a_shell_block_runs_and_a_failing_command_is_named_by_its_line(tmp_path):
    ok, failing = _blocks(tmp_path, "```sh\ntrue\n```\n\n```bash\n# a comment\ntrue\nfalse   # stale\ntrue\n```\n")
    assert _run(ok) == "1 command"
    with pytest.raises(run_docs.DocError, match=r"doc\.md:8: exit 1: false"):
        _run(failing)


def test_continuation_lines_make_one_command(tmp_path):
    (block,) = _blocks(tmp_path, "```sh\ntest \\\n  1 = 1\n```\n")
    ((line, command),) = run_docs.shell_commands(block, "\n".join(block.body))
    assert (line, command.split()) == (2, ["test", "1", "=", "1"])
    assert _run(block) == "1 command"


def test_a_python_block_runs_in_the_given_python_and_its_error_fails(tmp_path):
    good, bad = _blocks(tmp_path, "```python\nimport sys\nprint(sys.version)\n```\n\n```python\nprint(policy)\n```\n")
    assert _run(good) == "python"
    with pytest.raises(run_docs.DocError, match=r"doc\.md:6: python exit 1[\s\S]*NameError"):
        _run(bad)


def test_a_doc_run_comment_replaces_text_and_must_match(tmp_path):
    good, stale = _blocks(
        tmp_path,
        '<!-- doc-run: replace "false" "true" (the reason) -->\n```sh\nfalse\n```\n\n'
        '<!-- doc-run: replace "absent" "true" -->\n```sh\nfalse\n```\n',
    )
    assert _run(good) == "1 command"
    with pytest.raises(run_docs.DocError, match="'absent' is not in the block"):
        _run(stale)


def test_an_unknown_directive_fails(tmp_path):
    (block,) = _blocks(tmp_path, "<!-- doc-run: skip -->\n```sh\ntrue\n```\n")
    with pytest.raises(run_docs.DocError, match="unknown doc-run directive"):
        _run(block)


@pytest.mark.parametrize("fence", ["```", "```shell-session", "```py"])
def test_a_block_of_no_or_an_unknown_language_fails(tmp_path, fence):
    (block,) = _blocks(tmp_path, f"{fence}\ngit clone https://github.com/x/y\n```\n")
    with pytest.raises(run_docs.DocError, match=r"doc\.md:1: fence language"):
        _run(block)


def test_deployment_files_are_parsed_and_their_server_options_checked(tmp_path):
    (unit,) = _blocks(tmp_path, "```ini\n[Service]\nExecStart=/bin/true\n```\n")
    assert "parsed" in _run(unit)
    (broken,) = _blocks(tmp_path, "```ini\nno section here\n```\n")
    with pytest.raises(run_docs.DocError, match="not an INI file"):
        _run(broken)
    (container,) = _blocks(tmp_path, "```dockerfile\nFROM debian\nLAUNCH rockets\n```\n")
    with pytest.raises(run_docs.DocError, match="no Dockerfile instruction"):
        _run(container)
    (stale,) = _blocks(
        tmp_path, "```dockerfile\nFROM debian\nCMD [\"tabletop-server\", \"--no-such-flag\"]\n```\n"
    )
    with pytest.raises(run_docs.DocError, match="no option --no-such-flag"):
        _run(stale)


def test_text_blocks_are_shown_and_never_run(tmp_path):
    (block,) = _blocks(tmp_path, "```text\nfalse\n```\n")
    assert _run(block) is None


def test_a_rust_block_needs_a_crate_that_includes_its_file(tmp_path):
    (block,) = _blocks(tmp_path, "```rust\nfn main() {}\n```\n")
    with pytest.raises(run_docs.DocError, match="include_str"):
        _run(block)
    (learning,) = [b for b in run_docs.parse_blocks(ROOT / "docs" / "learning.md") if b.lang == "rust"][:1]
    assert "src/lib.rs" in _run(learning)


def test_json_and_toml_blocks_are_parsed(tmp_path):
    good_json, bad_json, good_toml, bad_toml = _blocks(
        tmp_path,
        '```json\n{"a": 1}\n{"b": [2]}\n```\n\n```json\n{"a": 1,}\n```\n\n'
        "```toml\n[dependencies]\nx = { path = \"y\" }\n```\n\n```toml\n[dependencies\n```\n",
    )
    assert _run(good_json) == "json parsed"
    with pytest.raises(run_docs.DocError, match="not JSON"):
        _run(bad_json)
    assert _run(good_toml).startswith("toml")
    if sys.version_info >= (3, 11):
        with pytest.raises(run_docs.DocError, match="not TOML"):
            _run(bad_toml)


def test_files_a_block_creates_are_removed(tmp_path):
    (block,) = _blocks(tmp_path, "```sh\necho '{}' > doc-run-selftest.json && test -s doc-run-selftest.json\n```\n")
    assert _run(block) == "1 command"
    assert not (ROOT / "doc-run-selftest.json").exists()


def test_every_block_of_the_docs_has_a_known_language():
    known = (
        run_docs.RUN_SHELL | run_docs.RUN_PYTHON | run_docs.DOCTEST | run_docs.PARSED
        | run_docs.CONFIG | run_docs.SHOWN
    )
    for path in run_docs.files(run_docs.DEFAULT_FILES):
        for block in run_docs.parse_blocks(path):
            assert block.lang in known, block.where
            run_docs.parse_note(block.note, block.where)


def test_inline_cargo_commands_must_name_existing_packages_and_targets(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text(
        "Run `cargo run --release --example arena` or\n"
        "`HOSTILE_INPUTS=9 cargo test -p stratego-core --test hostile -- --nocapture`.\n\n"
        "```text\n`cargo bench -p nowhere`\n```\n\n"
        "Stale: `cargo bench -p tabletop-rules --bench agents -- --warm-up-time 1`, "
        "placeholder: `cargo build -p <crate> --example <name>`.\n"
    )
    commands = run_docs.inline_cargo_commands(doc)
    assert [line for line, _ in commands] == [1, 2, 8, 8]
    packages, root = run_docs.cargo_targets()
    assert root == "tabletop-rules"
    for line, command in commands[:2] + commands[3:]:
        run_docs.check_cargo_command(f"doc.md:{line}", command, packages, root)
    packages["tabletop-benches"].add(("bench", "agents"))  # wherever the agents' bench lives
    with pytest.raises(run_docs.DocError, match=r"doc\.md:8: package tabletop-rules has no bench 'agents' \(it is in"):
        run_docs.check_cargo_command("doc.md:8", commands[2][1], packages, root)
    with pytest.raises(run_docs.DocError, match="no package 'nowhere'"):
        run_docs.check_cargo_command("doc.md:5", "cargo bench -p nowhere", packages, root)


def test_a_test_target_command_is_the_rust_tiers_checked_not_run_again(tmp_path):
    good, renamed, missing = _blocks(
        tmp_path,
        "```sh\nTABLETOP_LOAD_MATCHES=200 cargo test --release -p tabletop-server --test load -- --nocapture\n```\n\n"
        "```sh\nLOAD_MATCHES=200 cargo test --release -p tabletop-server --test load\n```\n\n"
        "```sh\ncargo test -p tabletop-server --test nowhere\n```\n",
    )
    assert _run(good) == "0 commands, 1 test command of the Rust tier checked (cargo test --workspace runs it)"
    with pytest.raises(run_docs.DocError, match=r"doc\.md:6: LOAD_MATCHES is not read by the test load"):
        _run(renamed)
    with pytest.raises(run_docs.DocError, match=r"doc\.md:10: package tabletop-server has no test 'nowhere'"):
        _run(missing)
    # Chained commands run as they are.
    assert run_docs.TEST_COMMAND.match("cargo test -p x --test y && rm -rf z") is None



def test_a_unit_test_command_by_name_filter_is_checked_not_run_again(tmp_path):
    good, missing, unread = _blocks(
        tmp_path,
        "```sh\ncargo test -p stratego-core --lib reading_behaviour -- --nocapture\n```\n\n"
        "```sh\ncargo test -p stratego-core --lib no_test_has_this_name\n```\n\n"
        "```sh\nNOBODY_READS=3 cargo test -p stratego-core --lib reading_behaviour\n```\n",
    )
    assert _run(good) == "0 commands, 1 test command of the Rust tier checked (cargo test --workspace runs it)"
    with pytest.raises(run_docs.DocError, match=r"doc\.md:6: no test function of stratego-core has 'no_test_has_this_name'"):
        _run(missing)
    with pytest.raises(run_docs.DocError, match=r"doc\.md:10: NOBODY_READS is not read by"):
        _run(unread)
    assert run_docs.LIB_TEST_COMMAND.match("cargo test -p x --lib y; rm -rf z") is None

FAKE_SERVER = '''
import argparse, http.server, sys
parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int)
parser.add_argument("--db")
args = parser.parse_args()
open(args.db, "w").close()

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<html>page</html>" if self.path == "/" else b'[{"name": "kuhn_poker"}]'
        self.send_response(200)
        self.end_headers()
        self.wfile.write(body)

server = http.server.HTTPServer(("127.0.0.1", args.port), Handler)
print(f"listening on http://127.0.0.1:{server.server_port}", flush=True)
server.serve_forever()
'''


def test_a_server_is_started_on_port_0_with_its_database_aside_probed_and_stopped(tmp_path):
    script = tmp_path / "fake_server.py"
    script.write_text(FAKE_SERVER)
    command = f"{sys.executable} {script} --port 8080 --db tabletop.db   # then open http://127.0.0.1:8080/"
    run_docs.run_server("doc.md:3", command, ENV, 60)
    assert not (ROOT / "tabletop.db").exists() or (ROOT / "tabletop.db").stat().st_mtime < script.stat().st_mtime
    with pytest.raises(run_docs.DocError, match=r"doc\.md:3: exit 2 before listening"):
        run_docs.run_server("doc.md:3", f"{sys.executable} {script} --bogus", ENV, 60)


def test_input_gives_the_block_s_commands_their_standard_input(tmp_path):
    given, empty = _blocks(
        tmp_path,
        '<!-- doc-run: input "secret" "secret" (a prompt asks twice) -->\n'
        '```sh\nread -r a; read -r b; test "$a$b" = secretsecret\n```\n\n'
        '```sh\n! read -r a\n```\n',
    )
    assert _run(given) == "1 command"
    assert _run(empty) == "1 command"


def test_input_and_postgres_are_for_shell_blocks_only(tmp_path):
    python, text = _blocks(
        tmp_path,
        '<!-- doc-run: input "x" -->\n```python\nprint(1)\n```\n\n<!-- doc-run: postgres -->\n```text\nx\n```\n',
    )
    with pytest.raises(run_docs.DocError, match="for shell blocks, not python"):
        _run(python)
    with pytest.raises(run_docs.DocError, match="a doc-run comment on a text block"):
        _run(text)


def test_an_installed_server_needs_the_block_s_own_build_before_it(tmp_path):
    (block,) = _blocks(tmp_path, "```sh\ntabletop-server --port 8081 &\n```\n")
    with pytest.raises(run_docs.DocError, match=r"doc\.md:2: no `cargo build --release -p tabletop-server` before it"):
        _run(block)


def test_a_postgres_block_without_root_fails_naming_it_unless_without_postgres(tmp_path, monkeypatch, capsys):
    doc = tmp_path / "doc.md"
    doc.write_text("<!-- doc-run: postgres -->\n```sh\ntrue\n```\n")
    monkeypatch.setattr(run_docs.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(run_docs, "WITHOUT_POSTGRES", False)  # main() sets it; restored after
    assert run_docs.main([str(doc)]) == 1
    out = capsys.readouterr().out
    assert "doc.md:2: needs root" in out and "--without-postgres" in out
    assert run_docs.main(["--without-postgres", str(doc)]) == 0
    assert "not run " in capsys.readouterr().out


SHARED_SERVER = '''
import http.server, json, os, pathlib, signal, sys
# The "database": a JSON file both processes read and write.
store = pathlib.Path(os.environ["TABLETOP_DATABASE"])
port = int(sys.argv[sys.argv.index("--port") + 1])
signal.signal(signal.SIGTERM, lambda *_: sys.exit(int(os.environ.get("EXIT_ON_TERM", "0"))))

class Handler(http.server.BaseHTTPRequestHandler):
    def answer(self, status, body):
        self.send_response(status)
        self.end_headers()
        self.wfile.write(body.encode())

    def do_GET(self):
        matches = json.loads(store.read_text()) if store.exists() else {}
        if self.path == "/":
            self.answer(200, "<html>page</html>")
        elif self.path == "/api/games":
            self.answer(200, '{"games": [{"name": "kuhn_poker"}]}')
        elif self.path == "/api/lobby":
            # LOBBY_OF_ITS_OWN: a server whose lobby is its process's.
            shown = {} if os.environ.get("LOBBY_OF_ITS_OWN") == "1" else matches
            open_ = [{"id": m["id"]} for m in shown.values() if m.get("waiting") is not None]
            self.answer(200, json.dumps({"open": open_}))
        elif self.path.split("/")[-1] in matches:
            self.answer(200, json.dumps(matches[self.path.split("/")[-1]]))
        else:
            self.answer(404, "{}")

    def do_POST(self):
        asked = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        matches = json.loads(store.read_text()) if store.exists() else {}
        if self.path.endswith("/join"):
            matches[self.path.split("/")[-2]]["waiting"] = None
            store.write_text(json.dumps(matches))
            self.answer(200, '{}')
            return
        new = str(len(matches) + 1)
        matches[new] = {"id": int(new), "game": asked["game"]}
        if self.path == "/api/lobby":
            matches[new]["waiting"] = 1
        store.write_text(json.dumps(matches))
        self.answer(201, json.dumps({"id": int(new)}))

server = http.server.HTTPServer(("127.0.0.1", port), Handler)
print(f"listening on http://127.0.0.1:{server.server_port}", flush=True)
server.serve_forever()
'''


def _shared_servers(tmp_path, first_db, second_db, exit_on_term="0", lobby="0"):
    script = tmp_path / "shared_server.py"
    script.write_text(SHARED_SERVER)
    return _blocks(
        tmp_path,
        "```sh\n"
        f"TABLETOP_DATABASE={first_db} EXIT_ON_TERM={exit_on_term} {sys.executable} {script} --port 8081 &\n"
        f"TABLETOP_DATABASE={second_db} LOBBY_OF_ITS_OWN={lobby} {sys.executable} {script} --port 8082 &\n"
        "```\n",
    )[0]


def test_background_servers_on_one_database_must_serve_one_match_and_exit_0_on_sigterm(tmp_path, monkeypatch):
    # The fake server stands for `cargo run -p tabletop-server`.
    monkeypatch.setattr(run_docs, "SERVER", run_docs.re.compile(r"shared_server\.py"))
    shared = tmp_path / "db.json"
    assert _run(_shared_servers(tmp_path, shared, shared)) == (
        "2 commands, 2 servers started in the background and stopped "
        "(a match opened through the first read through each other, a lobby seat opened there joined through the last)"
    )
    with pytest.raises(run_docs.DocError, match=r"match 1 opened through .* is not the same through .*\(404; differ: game, id\)"):
        _run(_shared_servers(tmp_path, tmp_path / "a.json", tmp_path / "b.json"))
    with pytest.raises(run_docs.DocError, match=r"doc\.md:2: exit 3 on SIGTERM \(0 expected\)"):
        _run(_shared_servers(tmp_path, shared, shared, exit_on_term="3"))
    shared.unlink()
    with pytest.raises(run_docs.DocError, match=r"the seat opened through .* is not listed by"):
        _run(_shared_servers(tmp_path, shared, shared, lobby="1"))


def test_a_postgres_block_runs_on_a_fresh_debian_cluster_with_its_authentication_then_dropped(tmp_path):
    # The full tier runs as root with Debian's postgresql (scripts/test-all.sh).
    (block,) = _blocks(
        tmp_path,
        '<!-- doc-run: postgres; input "PASSWORD" "PASSWORD" -->\n```sh\n'
        "runuser -u postgres -- createuser --pwprompt tabletop\n"
        "runuser -u postgres -- createdb -O tabletop tabletop\n"
        'PGPASSWORD=PASSWORD psql "postgres://tabletop@127.0.0.1:$PGPORT/tabletop" -c "select 1"\n'
        '! PGPASSWORD=WRONG psql "postgres://tabletop@127.0.0.1:$PGPORT/tabletop" -c "select 1"\n'
        "! psql -h 127.0.0.1 -U postgres -c 'select 1' </dev/null\n"
        "test \"$(pg_lsclusters -h | grep -c \" $PGPORT \")\" = 1 && echo \"$PGCLUSTER\" > "
        f"{tmp_path}/cluster\n"
        "```\n",
    )
    said = _run(block)
    assert said.startswith("6 commands, on a fresh PostgreSQL cluster (port ")
    version, name = (tmp_path / "cluster").read_text().strip().split("/")
    listed = run_docs.subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, check=True).stdout
    assert f"{version} {name} " not in " ".join(listed.split()) and name.startswith("doc-run-")
