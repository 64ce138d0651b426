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
