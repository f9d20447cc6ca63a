"""Worked examples run contained: each in its own process, folder and time limit, never in the caller's.

An example is Python from a rule file, and a pull request can change it. So that no example can make a
failing suite pass, leave a file in the repository or the site, or leave a process behind:

* a **server** process (this file's source, run by ``python -I -c``) with a scrubbed environment (no
  variable of the caller but ``PATH`` and the locale; ``HOME`` and ``TMPDIR`` point at a scratch folder)
  imports rulespy once, then **forks one child per example**. Each child starts from the same freshly
  imported modules, so nothing an example changes reaches the next one;
* the child puts itself in its **own process group**, works in a **new temporary folder** (removed
  afterwards) and, where the kernel has Landlock (Linux 5.13+), **cannot write, create or remove any
  file outside that folder** (reading stays allowed); it writes its output to a file there, and runs
  the code compiled under the ``.md`` path, so tracebacks name the rule file and line (the code is
  padded to its line in the file, as pytest-markdown-docs does);
* the server kills the child's whole process group with ``SIGKILL`` at the **wall-clock limit**, which no
  signal handler can ignore; it is a Linux child subreaper (``PR_SET_CHILD_SUBREAPER``), so daemons
  that left the group (``setsid``, double fork) come back to it and are killed too once the example ends;
* only an example that reached its end passes: the child writes its answer with a token it was given,
  so ``os._exit(0)``, ``sys.exit()``, ``pytest.skip()``, a signal or a killed server is a failure;
* with ``trace`` (``rulespy coverage``), ``resolve`` is wrapped in the child so that every rule its
  trace cites (and the rule of an illegal declaration) is answered in ``rules``.

pytest runs the worked examples through it (``conftest.py``), one child per example. ``rulespy coverage``
runs a whole rule file in one child (``Sandbox.run_file``): the same folder, environment, Landlock,
process group and subreaper, but its examples run in order in that child, a ``continuation`` running
only its own code in the namespace of its chain (so a chain of n fences costs n fences, not n forks
and n(n+1)/2 fences), each within the wall-clock limit from the answer before it. An example that does
not answer in time (or exits, or dies) is killed with its group and fails at its line, the rest of its
chain with it; the examples after that chain run in a new child.

This stops accidents and the hostile cases (an exit, a signal, a daemon, a write into the
repository); it is not a security sandbox: without Landlock an example may still write through an
absolute path, and, reading its own process's memory, it could forge its answer. The server speaks one
JSON object per line on its standard input and output; ``Sandbox`` is the client.
"""

from __future__ import annotations

import faulthandler
import gc
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

#: seconds one example may run (a few seconds; the slowest example takes well under one)
DEFAULT_LIMIT = 5.0
_OUTPUT_LIMIT = 64 << 10
_SPARE = 30.0  # how long past an example's limit the client waits for the server's answer


@dataclass(frozen=True)
class Outcome:
    """One example's end: ``ok`` only when its code ran to the end; ``report`` the failure, ``output``
    what it printed."""

    ok: bool
    report: str = ""
    output: str = ""
    error: str = ""  # one line: the exception's type and text, or why the example did not end
    rules: tuple[str, ...] = ()  # with ``trace``: the rules the example's resolutions cited


# ---- the server (runs in its own interpreter; standard library only) --------------------------------


def _subreaper() -> None:
    """Become the parent of any orphan our examples leave (Linux); elsewhere the process group only."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return


def _children() -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children", encoding="ascii") as handle:
                found.extend(int(pid) for pid in handle.read().split())
    except OSError:
        return found
    return found


def _kill_leftovers(group: int) -> None:
    """SIGKILL the example's process group, then every process that was orphaned to us, until none is."""
    try:
        os.killpg(group, 9)
    except OSError:
        pass
    for _ in range(100):
        children = _children()
        if not children:
            break
        for pid in children:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    while True:  # reap what died on its own
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _traceback_report(error: BaseException, filename: str) -> str:
    """The traceback from the first frame in the example's file, then the exception's own line."""
    import traceback

    lines: list[str] = []
    capture = False
    for frame in traceback.extract_tb(error.__traceback__):
        capture = capture or frame.filename == filename
        if capture:
            lines.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}')
            lines.append(f"    {(frame.line or '').strip()}")
    text = "".join(traceback.format_exception_only(type(error), error)).rstrip()
    return "Traceback (most recent call last):\n" + "\n".join(lines) + ("\n" if lines else "") + text


# Landlock (Linux 5.13+): the filesystem rights an example loses outside its own folder.
_WRITE_RIGHTS = sum(1 << bit for bit in (1, 4, 5, 6, 7, 8, 9, 10, 11, 12))  # write, remove, make anything
_REFER, _TRUNCATE = 1 << 13, 1 << 14  # ABI 2 and ABI 3


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 where there is none (not Linux, too old, or blocked)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        return max(0, int(libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))))
    except (OSError, AttributeError):
        return 0


def confine(folder: str) -> bool:
    """Forbid this process (and whatever it starts) to write, create, remove or truncate anything outside
    ``folder`` (and ``/dev/null``), with Landlock; reading stays allowed. ``False`` where the kernel has
    no Landlock (then only the working folder keeps relative writes in the scratch area)."""
    abi = landlock_abi()
    if abi < 1:
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    handled = _WRITE_RIGHTS | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    ruleset_attr = ctypes.c_uint64(handled)
    ruleset = libc.syscall(444, ctypes.byref(ruleset_attr), ctypes.c_size_t(8), ctypes.c_uint32(0))
    if ruleset < 0:
        return False
    try:
        file_rights = (1 << 1) | (_TRUNCATE if abi >= 3 else 0)
        for path, allowed in ((folder, handled), (os.devnull, file_rights)):
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = PathBeneath(allowed, fd)
                if libc.syscall(445, ctypes.c_int(ruleset), ctypes.c_int(1), ctypes.byref(rule), 0) < 0:
                    return False
            finally:
                os.close(fd)
        if libc.prctl(38, 1, 0, 0, 0) < 0:  # PR_SET_NO_NEW_PRIVS, required to restrict oneself
            return False
        return libc.syscall(446, ctypes.c_int(ruleset), ctypes.c_uint32(0)) == 0
    finally:
        os.close(ruleset)


def _recorder() -> set[str]:
    """Wrap the engine's ``resolve`` wherever it is imported, recording each rule its trace cites."""
    import importlib

    from rulespy.errors import IllegalDeclaration

    try:
        module = importlib.import_module("rulespy.sequences.resolution")
    except ImportError:
        module = importlib.import_module("rulespy.sequences.shooting_sequence")
    original = module.resolve
    seen: set[str] = set()

    def recording(*args: Any, **kwargs: Any) -> Any:
        try:
            result = original(*args, **kwargs)
        except IllegalDeclaration as error:
            seen.add(error.rule)
            raise
        seen.update(event.rule for event in result.trace)
        return result

    for name, loaded in list(sys.modules.items()):  # helpers that imported resolve already
        if name.startswith("rulespy") and getattr(loaded, "resolve", None) is original:
            loaded.resolve = recording  # type: ignore[attr-defined]
    return seen


def _enter(folder: str) -> int:
    """In a forked child: its own process group, ``folder`` as working folder, home and temp, output to
    ``.output`` there, no input, writes confined to it; the open ``.where`` file for ``faulthandler``."""
    os.setpgid(0, 0)
    os.chdir(folder)
    os.environ["HOME"] = os.environ["TMPDIR"] = tempfile.tempdir = folder
    output = os.open(os.path.join(folder, ".output"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(output, 1)
    os.dup2(output, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    where = os.open(os.path.join(folder, ".where"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    confine(folder)
    return where


def _fork(child: Callable[[int], None]) -> tuple[int, int]:
    """Fork a child running ``child(answer_fd)`` in its own process group; the pid and the answer's
    read end."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            child(write)
        finally:
            os._exit(70)
    os.close(write)
    try:
        os.setpgid(pid, pid)  # also from here, so that killpg cannot race the child's own call
    except OSError:
        pass
    return pid, read


def _kill(pid: int) -> int:
    """SIGKILL the child's process group; the child's exit status."""
    try:
        os.killpg(pid, 9)
    except OSError:
        pass
    return os.waitpid(pid, 0)[1]


def _why(timed_out: bool, status: int, limit: float, where: str, filename: str) -> str:
    """Why an example ended without its answer."""
    if timed_out:
        return f"Timeout: the example ran longer than its limit of {limit:g} s and was killed" + _where(
            where, filename
        )
    if os.WIFEXITED(status):
        return f"the example ended its process (exit status {os.WEXITSTATUS(status)}) before it finished"
    if os.WIFSIGNALED(status):
        return f"the example's process was killed by signal {os.WTERMSIG(status)} before it finished"
    return "the example ended before it finished"


def _child(request: dict[str, Any], folder: str, answer: int) -> None:
    """In the forked child: run the example, write the answer line, end without any cleanup of Python's."""
    where = _enter(folder)
    token, filename = request["token"], request["filename"]
    faulthandler.dump_traceback_later(max(0.05, float(request["limit"]) - 0.2), file=where)
    report = error_line = ""
    rules: set[str] = set()
    try:
        if request.get("trace"):
            rules = _recorder()
        code = compile(request["code"], filename, "exec", dont_inherit=True)
        exec(code, {"__name__": "fence"})  # noqa: S102 - a worked example of the rules
        ok = True
    except BaseException as error:  # noqa: BLE001 - SystemExit and pytest's Skipped included
        ok, report = False, _traceback_report(error, filename)
        error_line = f"{type(error).__name__}: {error}"[:300]
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    line = json.dumps(
        {"token": token, "ok": ok, "report": report, "error": error_line, "rules": sorted(rules)}
    )
    line += "\n"
    os.write(answer, line.encode("utf-8", "replace"))
    os._exit(0)


def _read_answer(fd: int, deadline: float) -> bytes | None:
    """The child's answer line, or ``None`` when it ended or ran out of time without one."""
    data = b""
    while b"\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        data += chunk
        if len(data) > 4 << 20:
            return None
    return data.split(b"\n", 1)[0]


def run_one(request: dict[str, Any], scratch: str) -> dict[str, Any]:
    """Fork, run ``request``'s example in the child, and answer ``{"ok", "report", "output"}``."""
    folder = tempfile.mkdtemp(prefix="example-", dir=scratch)
    started = time.monotonic()
    limit = float(request.get("limit", DEFAULT_LIMIT))
    pid, read = _fork(lambda answer: _child(request, folder, answer))
    line = _read_answer(read, started + limit)
    timed_out = line is None and time.monotonic() - started >= limit
    os.close(read)
    status = None
    if line is not None:  # the child answered; give it a moment to end by itself
        while time.monotonic() - started < limit:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
                break
            time.sleep(0.002)
    if status is None:
        status = _kill(pid)
    _kill_leftovers(pid)
    output, where = _read(folder, ".output"), _read(folder, ".where")
    shutil.rmtree(folder, ignore_errors=True)
    answer = _decode(line, request["token"])
    if answer is not None:
        return {**answer, "output": output}
    why = _why(timed_out, status, limit, where, request["filename"])
    return {"ok": False, "report": why, "output": output, "error": why}


def _file_child(request: dict[str, Any], folder: str, answer: int) -> None:
    """In the forked child: run a file's examples in order, one answer line per example, then end.

    A ``fresh`` step starts a new namespace (and a new set of traced rules); a continuation step runs only
    its own code in the namespace of its chain, so a chain costs linear time, and it answers the rules of
    the whole chain so far and the error of the chain (a chain that failed stays failed, as if the whole
    chain had run again). Each step's code is compiled at its own line of the ``.md`` file."""
    import ast

    where = _enter(folder)
    token, filename, limit = request["token"], request["filename"], float(request["limit"])
    gc.freeze()  # the preloaded modules: a collection need not walk them after every few examples
    # one watchdog for the whole file (arming one per example costs a thread each): it dumps the stack
    # twice per limit, so the last dump before a kill shows the example that hung, at its line
    faulthandler.dump_traceback_later(max(0.05, limit / 2), repeat=True, file=where)
    seen: set[str] = set()
    broken = ""  # an engine whose resolve cannot be wrapped: every example fails with why
    try:
        if request.get("trace"):
            seen = _recorder()
    except BaseException as error:  # noqa: BLE001 - as ``_child`` reports it, for each example
        broken = f"{type(error).__name__}: {error}"[:300]
    namespace: dict[str, Any] = {}
    error_line = ""
    for index, step in enumerate(request["steps"]):
        if step.get("fresh") or index == 0:
            seen.clear()
            namespace, error_line = {"__name__": "fence"}, broken
        if not error_line:
            try:
                tree = ast.parse(step["code"], filename)
                ast.increment_lineno(tree, int(step["line"]))
                exec(compile(tree, filename, "exec", dont_inherit=True), namespace)  # noqa: S102
            except BaseException as error:  # noqa: BLE001 - SystemExit and pytest's Skipped included
                error_line = f"{type(error).__name__}: {error}"[:300]
        line = {"token": token, "ok": not error_line, "error": error_line, "rules": sorted(seen)}
        os.write(answer, (json.dumps(line) + "\n").encode("utf-8", "replace"))
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(0)


def run_file(request: dict[str, Any], scratch: str) -> dict[str, Any]:
    """Fork, run ``request``'s ``steps`` (one file's examples) in the child, each within ``limit`` s of the
    one before; answer ``{"results": [...], "stopped": why}``: one result per step that answered, and why
    the child ended early (``""`` when every step answered). The client runs the steps after a stop again
    in a new child."""
    folder = tempfile.mkdtemp(prefix="examples-", dir=scratch)
    limit = float(request.get("limit", DEFAULT_LIMIT))
    steps = request["steps"]
    pid, read = _fork(lambda answer: _file_child(request, folder, answer))
    results: list[dict[str, Any]] = []
    pending = b""
    timed_out = False
    while len(results) < len(steps):
        deadline = time.monotonic() + limit
        while b"\n" not in pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read], [], [], left)[0]:
                timed_out = left <= 0 or time.monotonic() >= deadline
                break
            chunk = os.read(read, 65536)
            if not chunk:
                break
            pending += chunk
        if b"\n" not in pending:
            break
        raw, pending = pending.split(b"\n", 1)
        answer = _decode(raw, request["token"])
        if answer is None:
            break
        results.append(answer)
    os.close(read)
    status = _kill(pid)
    _kill_leftovers(pid)
    where = _read(folder, ".where", tail=True)
    shutil.rmtree(folder, ignore_errors=True)
    why = ""
    if len(results) < len(steps):  # the last dump of the watchdog is the one of the example that hung
        why = _why(timed_out, status, limit, where.rpartition("Timeout (")[2], request["filename"])
    return {"results": results, "stopped": why}


def _read(folder: str, name: str, tail: bool = False) -> str:
    """The first (``tail``: the last) 64 KiB of a file the child wrote."""
    try:
        with open(os.path.join(folder, name), "rb") as handle:
            if tail:
                handle.seek(max(0, os.fstat(handle.fileno()).st_size - _OUTPUT_LIMIT))
            return handle.read(_OUTPUT_LIMIT).decode("utf-8", "replace")
    except OSError:
        return ""


def _where(dump: str, filename: str) -> str:
    """The lines of the example's file that ``faulthandler`` saw running just before the limit."""
    marker = f'File "{filename}", line '
    lines = [line.strip() for line in dump.splitlines() if line.strip().startswith(marker)]
    return "".join(f"\n  {line.replace(' in ', ', in ', 1)}" for line in lines[:1])


def _decode(line: bytes | None, token: str) -> dict[str, Any] | None:
    try:
        answer = json.loads(line) if line is not None else None
    except ValueError:
        return None
    if not isinstance(answer, dict) or answer.get("token") != token:
        return None
    rules = answer.get("rules")
    return {
        "ok": answer.get("ok") is True,
        "report": str(answer.get("report", "")),
        "error": str(answer.get("error", "")),
        "rules": [str(rule) for rule in rules] if isinstance(rules, list) else [],
    }


def serve() -> None:
    """The server's loop: preload rulespy, then one answer line for each request line."""
    root, scratch, own = sys.argv[1], sys.argv[2], sys.argv[3] == "own"
    sys.path.insert(0, root)
    os.chdir(scratch)
    tempfile.tempdir = scratch
    _subreaper()
    engine_error = ""
    try:
        import pkgutil

        import rulespy

        where = os.path.dirname(os.path.dirname(os.path.abspath(rulespy.__file__)))
        if own and where != os.path.abspath(root):
            engine_error = f"rulespy was imported from {where}, not from {root}"
        for info in pkgutil.walk_packages(rulespy.__path__, prefix="rulespy."):
            try:
                __import__(info.name)
            except Exception:  # noqa: BLE001 - an example importing it will report the error
                continue
    except Exception as error:  # noqa: BLE001 - idem; for ``own``, the engine cannot run at all
        engine_error = engine_error or f"{type(error).__name__}: {error}"
    for raw in sys.stdin:
        if own and engine_error:
            answer = {"ok": False, "report": engine_error, "engine_error": engine_error}
        else:
            request = json.loads(raw)
            answer = run_file(request, scratch) if "steps" in request else run_one(request, scratch)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


# ---- the client --------------------------------------------------------------------------------------


def scrubbed_environment(home: str) -> dict[str, str]:
    """What an example sees of the environment: a plain ``PATH``, the locale, a scratch ``HOME``."""
    env = {"PATH": os.defpath, "LANG": "C.UTF-8", "HOME": home, "TMPDIR": home}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


class Sandbox:
    """A server started on first use and restarted when it dies; ``close()`` ends it and its scratch.

    ``own_engine``: the examples must run the engine of the tree at ``root`` (``rulespy coverage``);
    otherwise every run answers ``EngineError``."""

    def __init__(self, root: Path, own_engine: bool = False) -> None:
        self.root = Path(root).resolve()
        self.own_engine = own_engine
        self._process: subprocess.Popen[str] | None = None
        self._scratch: str | None = None

    def _start(self) -> subprocess.Popen[str]:
        self._scratch = tempfile.mkdtemp(prefix="rulespy-examples-")
        self._stderr: IO[bytes] = tempfile.TemporaryFile()
        source = Path(__file__).read_text(encoding="utf-8") + "\nserve()\n"
        self._process = subprocess.Popen(
            [
                sys.executable,
                "-I",
                "-c",
                source,
                str(self.root),
                self._scratch,
                "own" if self.own_engine else "-",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            cwd=self._scratch,
            env=scrubbed_environment(self._scratch),
            text=True,
            start_new_session=True,
        )
        return self._process

    def start(self) -> None:
        """Start the server now (it imports the engine while the caller goes on), if it is not running."""
        if not (self._process and self._process.poll() is None):
            self._start()

    def run(self, code: str, filename: str, limit: float = DEFAULT_LIMIT, trace: bool = False) -> Outcome:
        """Run one example's ``code`` as if it were the file ``filename``, for at most ``limit`` s."""
        request = {"code": code, "filename": filename, "limit": limit, "trace": trace}
        answer = self._ask(request, limit + _SPARE)
        if not isinstance(answer, dict):
            why = f"the example runner stopped before answering ({self._stopped()})"
            return Outcome(False, why, error=why)
        return Outcome(
            answer.get("ok") is True,
            str(answer.get("report", "")),
            str(answer.get("output", "")),
            str(answer.get("error", "")),
            tuple(str(rule) for rule in answer.get("rules", ())),
        )

    def run_file(
        self,
        steps: list[tuple[str, int, bool]],
        filename: str,
        limit: float = DEFAULT_LIMIT,
        trace: bool = False,
    ) -> list[Outcome]:
        """Run one file's examples, ``steps`` of ``(code, line, continues)`` in file order, in as few
        children as possible (``rulespy coverage``): a continuation runs only its own code, in the
        namespace of its chain, and each example has ``limit`` s. An example that does not end (a time-out,
        an exit, a signal) fails, and so does the rest of its chain; the next chain runs in a new child.
        One ``Outcome`` per step, in order (no ``report`` or ``output``: ``error`` says what failed)."""
        outcomes: list[Outcome] = []
        while len(outcomes) < len(steps):
            start = len(outcomes)
            answer = self._ask(
                {
                    "steps": [
                        {"code": code, "line": line, "fresh": not continues}
                        for code, line, continues in steps[start:]
                    ],
                    "filename": filename,
                    "limit": limit,
                    "trace": trace,
                },
                limit * (len(steps) - start) + _SPARE,
            )
            results = answer.get("results") if isinstance(answer, dict) else None
            if not isinstance(results, list):
                why = f"the example runner stopped before answering ({self._stopped()})"
                results, answer = [], {"stopped": why}
            for result in results[: len(steps) - start]:
                outcomes.append(
                    Outcome(
                        result.get("ok") is True,
                        error=str(result.get("error", "")),
                        rules=tuple(str(rule) for rule in result.get("rules", ())),
                    )
                )
            # the child stopped at this step: it and the rest of its chain fail
            if len(outcomes) < len(steps):
                why = str(answer.get("stopped") or "the example ended before it finished")
                outcomes.append(Outcome(False, why, error=why))
                while len(outcomes) < len(steps) and steps[len(outcomes)][2]:
                    outcomes.append(Outcome(False, why, error=why))
        return outcomes

    def _ask(self, request: dict[str, Any], wait: float) -> Any:
        """Send one request to the server (started if need be), its answer or ``None``."""
        process = self._process if self._process and self._process.poll() is None else self._start()
        assert process.stdin is not None and process.stdout is not None
        request["token"] = os.urandom(16).hex()
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            ready = select.select([process.stdout], [], [], wait)[0]
            line = process.stdout.readline() if ready else ""
            answer = json.loads(line) if line else None
        except (OSError, ValueError):
            return None
        if isinstance(answer, dict) and answer.get("engine_error"):
            from rulespy.coverage.engine import EngineError  # not at the top: the server runs this file

            raise EngineError(str(answer["engine_error"]))
        return answer

    def _stopped(self) -> str:
        tail = ""
        try:
            self._stderr.seek(0)
            tail = (self._stderr.read().decode("utf-8", "replace").strip().splitlines() or [""])[-1]
        except (OSError, AttributeError):
            pass
        self.close()
        return tail or "no message"

    def close(self) -> None:
        if self._process is not None:
            try:  # end of input: the server finishes its loop (and its subreaped orphans with it)
                if self._process.stdin is not None:
                    self._process.stdin.close()
                self._process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            try:
                os.killpg(self._process.pid, 9)
            except OSError:
                pass
            self._process.wait()
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._process = None
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
