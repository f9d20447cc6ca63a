"""The rules judge's runtime in the built site: Pyodide and rulespy, copied in by the build, never a CDN.

Pyodide comes from its npm package at the version pinned in ``rulespy/render/pyodide/package.json``
and ``package-lock.json``: ``npm ci`` installs it into ``build/pyodide/`` (outside git) the first time,
and again only when the lock file changes. ``rulespy/render/pyodide/runtime-files.json`` pins, beside
the lock, the size and SHA-256 of each file a browser loads from that version: the page says how much
the first start downloads from it (``download_size``), so a fresh clone renders the real figure before
the runtime is ever installed, and ``install_runtime`` refuses an installed runtime that differs from it.
After changing the lock file, install and pin again: ``python -m rulespy.render.judge pin``.
``publish`` then copies into ``SITE/judge/``:

- ``pyodide/``: the five files a browser needs to start Python (the loader, the WebAssembly module and
  its glue, the standard library, the lock file); no package from Pyodide's own index is loaded;
- ``rulespy.zip``: the same ``rulespy`` the command line runs, as its ``.py`` sources, and PyYAML's
  pure-Python sources (the package installed beside rulespy, without its optional C accelerator); the
  engine's worker writes it into Pyodide's file system as one file and imports from it (zipimport).

The worker keeps the started engine between page loads as a Pyodide memory snapshot in the browser's
Cache Storage (``assets/judge-worker.js`` says how and when), so that a new page load starts in about a
tenth of the time (bench/README.md, "The rules judge in the browser").

Nothing of it loads until a reader presses "Try it" or opens the Judge page (``assets/judge.js``). The
site needs no network when it runs: serve the site folder with any static file server.

Each runtime file is also published precompressed beside itself, ``NAME.gz`` (gzip) and ``NAME.br``
(Brotli): the 12.6 MB a reader fetches become about 5.5 MB (the WebAssembly module shrinks from 8.6 to
2.5 MB; the standard library is a zip, compressed already, and is sent as it is). A host that serves
them when the browser accepts the encoding sends less than half the bytes (README, "The rules judge on a
static host", says how for common hosts); one that does not serves the plain files, which work the same.
``rulespy.zip`` is compressed already and gets neither, nor does the standard library's zip. Compressing
takes seconds, so the results are kept in the user's cache folder by the content's hash
(``compressed_cache``) and made again only when a file changes.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import json
import shutil
import subprocess
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from rulespy.errors import BookError

if TYPE_CHECKING:
    from rulespy.check.graph import LinkGraph

PACKAGE = Path(__file__).resolve().parent / "pyodide"
"""The committed ``package.json`` and ``package-lock.json`` that pin Pyodide."""
PINS = PACKAGE / "runtime-files.json"
"""The committed size and SHA-256 of each of ``RUNTIME_FILES`` in the pinned version (``pin``)."""
INSTALL = Path("build") / "pyodide"
"""Where ``npm ci`` installs Pyodide, under the repository root (never committed)."""
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The files of the npm package a browser loads (its Node.js and TypeScript files are left out)."""
SITE_FOLDER = "judge"
BUNDLE = "rulespy.zip"
PRECOMPRESSED = (".gz", ".br")
"""The encodings each runtime file is also published in, beside it (``precompress``)."""
ZIPPED = ("python_stdlib.zip",)
"""Runtime files that are zips already (2% smaller compressed again): published without copies."""
RUNTIME_PATHS = frozenset(
    [
        *(f"{SITE_FOLDER}/pyodide/{name}" for name in RUNTIME_FILES),
        *(
            f"{SITE_FOLDER}/pyodide/{name}{end}"
            for name in RUNTIME_FILES
            if name not in ZIPPED
            for end in PRECOMPRESSED
        ),
        f"{SITE_FOLDER}/{BUNDLE}",
    ]
)
"""What ``publish`` writes, relative to the site; ``make serve`` publishes into the staged pages, and the
render leaves these files there (``rulespy.render.serve``)."""
_EPOCH = (1980, 1, 1, 0, 0, 0)


class JudgeError(BookError):
    """The runtime cannot be installed or published (npm missing, the registry unreachable)."""

    def __init__(self, message: str, *, no_npm: bool = False) -> None:
        super().__init__(message)
        self.no_npm = no_npm


def pinned_version() -> str:
    """The Pyodide version the lock file pins."""
    lock = json.loads((PACKAGE / "package-lock.json").read_text(encoding="utf-8"))
    return str(lock["packages"]["node_modules/pyodide"]["version"])


def install_runtime(root: Path) -> Path:
    """The installed Pyodide package folder, running ``npm ci`` into ``root/build/pyodide`` first when it
    is missing or its lock file differs from the committed one. ``JudgeError`` when npm fails."""
    target = Path(root) / INSTALL
    package = target / "node_modules" / "pyodide"
    lock = (PACKAGE / "package-lock.json").read_bytes()
    installed = target / "package-lock.json"
    if (
        installed.is_file()
        and installed.read_bytes() == lock
        and all((package / name).is_file() for name in RUNTIME_FILES)
    ):
        return verified(package)
    target.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PACKAGE / name, target / name)
    done = npm_ci(target)
    if done is None:
        raise JudgeError(
            "the rules judge needs Pyodide from the npm registry, and npm is not installed"
            " (apt-get install nodejs npm)",
            no_npm=True,
        )
    if done.returncode != 0 or not all((package / name).is_file() for name in RUNTIME_FILES):
        installed.unlink(missing_ok=True)
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise JudgeError(f"npm ci of pyodide {pinned_version()} into {target} failed: {detail[0]}")
    return verified(package)


def pinned_files() -> dict[str, dict[str, object]]:
    """``runtime-files.json``'s ``{name: {"bytes": N, "sha256": HEX}}`` for each of ``RUNTIME_FILES``;
    ``JudgeError`` when it is missing, malformed or pins another Pyodide than the lock file."""
    try:
        pins = json.loads(PINS.read_text(encoding="utf-8"))
        files = {name: pins["files"][name] for name in RUNTIME_FILES}
        version = pins["pyodide"]
        sizes_ok = all(isinstance(f["bytes"], int) and isinstance(f["sha256"], str) for f in files.values())
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise JudgeError(f"{PINS}: not a list of the pinned runtime's files ({error})") from None
    if version != pinned_version() or not sizes_ok:
        raise JudgeError(
            f"{PINS}: pins pyodide {version}, the lock file {pinned_version()}:"
            " run `python -m rulespy.render.judge pin` once the lock file's version is installed"
        )
    return files


def file_pin(path: Path) -> dict[str, object]:
    """``{"bytes": N, "sha256": HEX}`` of ``path``."""
    data = path.read_bytes()
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def verified(package: Path) -> Path:
    """``package`` (an installed Pyodide) when each runtime file is the one ``runtime-files.json`` pins;
    ``JudgeError`` naming the first that differs (its size said to readers would be wrong)."""
    for name, pin in pinned_files().items():
        if file_pin(package / name) != pin:
            raise JudgeError(
                f"{package / name} is not the file {PINS.name} pins for pyodide {pinned_version()}"
                " (remove build/pyodide to install it again, or pin a new lock file:"
                " `python -m rulespy.render.judge pin`)"
            )
    return package


def pin(root: Path) -> Path:
    """Write ``runtime-files.json`` from the runtime the lock file installs under ``root`` (after a
    change of the lock file); the file written."""
    target = Path(root) / INSTALL
    if (target / "package-lock.json").is_file() and (target / "package-lock.json").read_bytes() != (
        PACKAGE / "package-lock.json"
    ).read_bytes():
        (target / "package-lock.json").unlink()  # installed from another lock: npm ci again
    package = target / "node_modules" / "pyodide"
    try:
        install_runtime(root)
    except JudgeError:
        if not all((package / name).is_file() for name in RUNTIME_FILES):
            raise
    pins = {"pyodide": pinned_version(), "files": {name: file_pin(package / name) for name in RUNTIME_FILES}}
    PINS.write_text(json.dumps(pins, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return PINS


def npm_ci(folder: Path) -> subprocess.CompletedProcess[str] | None:
    """``npm ci`` in ``folder`` (its ``package-lock.json`` pins everything, no install scripts run), or
    None without npm. Also how the browser tests install axe-core (``tests/site/axe/``)."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    return subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def _zip_entry(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=_EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def bundled_sources() -> dict[str, Path]:
    """The ``.py`` files ``bundle`` zips, by their name in the zip: rulespy's (this package) and
    PyYAML's, sorted."""
    packages = (Path(__file__).resolve().parents[1], Path(yaml.__file__).resolve().parent)
    return {
        path.relative_to(package.parent).as_posix(): path
        for package in packages
        for path in sorted(package.rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def bundle() -> bytes:
    """The zip the page unpacks into Pyodide: rulespy's and PyYAML's ``.py`` files and the engine's
    compiled message catalogues (``rulespy/locale/LANG/LC_MESSAGES/rulespy.mo``), byte-identical for the
    same sources (sorted entries, fixed time stamps)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, path in bundled_sources().items():
            _zip_entry(archive, name, path.read_bytes())
        # The engine's catalogues compiled (Pyodide has no Babel to read the .po: rulespy.i18n).
        from rulespy import i18n

        for code in i18n.LANGUAGES[1:]:
            mo = i18n.po_path(code).with_suffix(".mo").relative_to(i18n.LOCALE.parent.parent).as_posix()
            _zip_entry(archive, mo, i18n.compile_po(i18n.po_path(code), code))
    return out.getvalue()


def publish(root: Path, site_dir: Path) -> list[Path]:
    """Copy the Pyodide runtime and the rulespy bundle into ``site_dir/judge/``; the files written."""
    package = install_runtime(root)
    folder = Path(site_dir) / SITE_FOLDER
    (folder / "pyodide").mkdir(parents=True, exist_ok=True)
    written = []
    cache = compressed_cache()
    for name in RUNTIME_FILES:
        target = folder / "pyodide" / name
        shutil.copyfile(package / name, target)
        written += [target, *([] if name in ZIPPED else precompress(target, cache))]
    (folder / BUNDLE).write_bytes(bundle())
    written.append(folder / BUNDLE)
    return written


def compressed_cache() -> Path:
    """Where ``precompress`` keeps what it made, by content: the user's cache folder (as ``rulespy check``
    keeps its cache), shared by every clone and every test site built on the machine."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("rulespy", appauthor=False)) / "judge-precompressed"


def precompress(path: Path, cache: Path) -> list[Path]:
    """Write ``PATH.gz`` and ``PATH.br`` beside ``path`` (kept in ``cache`` by the content's hash): the
    files written. Brotli at quality 5 and gzip at level 6: within 2% of their best on Pyodide's files
    (5.11 MB against 5.02 MB at Brotli 9) in a tenth of the time (4 s against 42 s for the three largest
    on the loaded 2-core machine); gzip with no name or time stamp, so that a file always gives the same
    bytes."""
    import brotli

    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:32]
    cache.mkdir(parents=True, exist_ok=True)
    made = []
    packers = {
        ".gz": lambda d: gzip.compress(d, compresslevel=6, mtime=0),
        ".br": lambda d: brotli.compress(d, quality=5),
    }
    for suffix in PRECOMPRESSED:
        pack = packers[suffix]
        kept = cache / (digest + suffix)
        if not kept.is_file():
            part = kept.with_suffix(kept.suffix + ".part")
            part.write_bytes(pack(data))
            part.replace(kept)
        target = path.with_name(path.name + suffix)
        shutil.copyfile(kept, target)
        made.append(target)
    return made


PAGE = "judge.md"
"""The Judge page, staged beside the rule pages (URL ``judge/``, beside the runtime's folder)."""
STARTER = """\
# A board of your own: add units, models (at: [x, y] in inches) and weapons, declare, then Run.
weapons:
  rifle: {range: 24, dice: 2, lock: 4, damage: 1}
units:
  - id: shooters
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [rifle]}
  - id: targets
    side: red
    models:
      - {id: t1, at: [12, 0]}
attack: {unit: shooters, command: shoot, targets: [{unit: targets, mark: t1}]}
seed: 1   # or scripted dice in Dice Order: dice: [4, 6]
"""


def library(root: Path, scenario_files: list[str]) -> dict[str, object]:
    """The weapon profiles the published scenarios define, by name (the first definition of a name),
    offered by the Judge page's "Add a model" form. Each file is read by the scenario loader, budgets
    included (``rulespy.scenario.weapon_profiles``); one it refuses gives no profile (the render has
    refused it already: ``refused``)."""
    found: dict[str, object] = {}
    for path in scenario_files:
        read = _profiles(root, path)
        for name, profile in read if isinstance(read, tuple) else ():
            found.setdefault(name, profile)
    return dict(sorted(found.items()))


def refused(root: Path, scenario_files: list[str]) -> list[str]:
    """``PATH:LINE: message`` for each of the published ``scenario_files`` the scenario loader refuses: a
    scenario offered to players must load (an alias bomb is refused by the loader's budget within
    milliseconds, never expanded), so the render stops on it (exit 2) instead of publishing it."""
    return [read for read in (_profiles(root, path) for path in scenario_files) if isinstance(read, str)]


def _profiles(root: Path, path: str) -> tuple[tuple[str, object], ...] | str:
    """The ``weapons`` of the scenario file ``path`` (under ``root``), in order, or the loader's located
    message when it refuses the file."""
    from rulespy.errors import InvalidInput
    from rulespy.scenario import read_scenario_text

    try:
        return _weapons(read_scenario_text(Path(root) / path), path)
    except InvalidInput as error:
        error.path = path
        return error.located()


@functools.lru_cache(maxsize=256)
def _weapons(text: str, path: str) -> tuple[tuple[str, object], ...]:
    """The ``weapons`` of one scenario's text, in order. Kept by text: each edition's Judge page, and
    each re-render of ``make serve``, asks again for the same files, and loading them is the slow part.
    (A refusal is not kept: ``InvalidInput`` is raised again, with its line, on the next call.)"""
    from rulespy.scenario import weapon_profiles

    return tuple(weapon_profiles(text, path).items())


WORDS_SCRIPT = "assets/judge-words.js"
"""Staged into each edition's site (and loaded before ``assets/judge.js``): that edition's words for the
judge and where its runtime is."""


def words(language: str | None) -> dict[str, str]:
    """The judge's words in ``language`` (``judge-`` entries of ``languages.WORDS``, without the prefix),
    English for any the translation lacks."""
    from .languages import WORDS

    found = {k.removeprefix("judge-"): v for k, v in WORDS[None].items() if k.startswith("judge-")}
    found.update(
        (k.removeprefix("judge-"), v) for k, v in WORDS.get(language, {}).items() if k.startswith("judge-")
    )
    return found


def rule_titles(graph: LinkGraph, site_pages: Iterable[str], rule_dirs: Sequence[str]) -> dict[str, str]:
    """Every rule section's heading by ``PATH#ANCHOR``, as ``graph`` (one edition's) reads them; the rule
    files are those of the ``rule_dirs`` folders (the book's ``check: rule_dirs``)."""
    from .pages import is_rule_file

    rules = [p for p in sorted(site_pages) if is_rule_file(p, rule_dirs)]
    return {f"{p}#{h.anchor}": h.text for p in rules for h in graph.headings(p)}


def download_size() -> int | None:
    """The bytes a reader's browser fetches the first time the judge starts (the runtime's files and the
    rulespy bundle, uncompressed): the runtime's as ``runtime-files.json`` pins them (known before the
    runtime is installed, as on a fresh clone or CI machine, and checked against the installed files by
    ``install_runtime``), the bundle's from the sources. None only when the pins are unreadable (the page
    then says "a few megabytes")."""
    try:
        pins = pinned_files()
    except JudgeError:
        return None
    return sum(int(str(pin["bytes"])) for pin in pins.values()) + len(bundle())


def words_script(
    language: str | None,
    titles: dict[str, str] | None = None,
    size: int | None = None,
    rule_dirs: Sequence[str] = (),
) -> bytes:
    """``assets/judge-words.js`` for edition ``language``: ``window.vsJudgeSite``, the words ``judge.js``
    shows, the runtime's folder from the edition's root, the ``titles`` of the rule sections by
    ``PATH#ANCHOR`` (the account's steps cite rules by their title, linking to the section) and the
    ``size`` of the first download (``download_size``), said before it starts, and the pinned Pyodide
    version (part of the key of the engine's snapshot, ``assets/judge-worker.js``), and the rule folders
    ``rule_dirs`` (the book's ``check: rule_dirs``: ``judge.js`` links the rules an account cites in them,
    ``core/damage.md#target-limit``, and knows no folder of its own). A translation (``/ru/``)
    shares the English site's runtime (``../judge/``): one copy of Pyodide in the site, cached once for
    both editions."""
    site = {
        "runtime": ("../" if language else "") + SITE_FOLDER + "/",
        "words": words(language),
        "titles": titles or {},
        "download": size,
        "pyodide": pinned_version(),
        "rules": list(rule_dirs),
    }
    text = json.dumps(site, ensure_ascii=False, sort_keys=True)
    header = "// Written by rulespy render (rulespy/render/judge.py): never edit.\n"
    return f"{header}window.vsJudgeSite = {text};\n".encode()


def page(root: Path, scenario_files: list[str], language: str | None = None) -> str:
    """The Judge page's markdown in ``language``: the editor (``assets/judge.js``) on a small starting
    board or on any of ``scenario_files`` (published paths such as ``examples/scenarios/armour.yaml``),
    with forms to declare the attack, move models, add models with weapons from their ``library`` or
    typed in, and roll seeded, scripted or random dice; an address ending ``#s=CODE`` (a permalink)
    opens the situation packed in it. The forms are built by ``judge.js`` in the page's language; the
    engine's account stays as the engine prints it."""
    from xml.sax.saxutils import quoteattr

    from .web import encode

    said = words(language)
    weapons = quoteattr(json.dumps(library(root, scenario_files), sort_keys=True))
    options = [f'<option value="">{said["empty"]}</option>']
    options += [f"<option value={quoteattr(path)}>{Path(path).stem}</option>" for path in scenario_files]
    return "\n".join(
        [
            f"# {said['title']}",
            "",
            said["intro"],
            "",
            f'<div class="vs-judge-page" data-empty="{encode(STARTER)}" data-library={weapons}>',
            f'<label>{said["start"]} <select class="vs-judge-start">{"".join(options)}</select></label>',
            "</div>",
            "",
        ]
    )


if __name__ == "__main__":  # python -m rulespy.render.judge pin: after a change of the lock file
    import sys

    if sys.argv[1:] != ["pin"]:
        sys.exit("usage: python -m rulespy.render.judge pin")
    try:
        print(pin(Path.cwd()))
    except JudgeError as problem:
        sys.exit(f"rulespy.render.judge: {problem}")
