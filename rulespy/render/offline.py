"""The site offline at the table: a web app manifest and a service worker written by Workbox.

After the site is built (both editions), ``publish`` writes into each edition's root (``SITE/`` and
``SITE/ru/``):

- ``sw.js``, the service worker, by Workbox's ``generateSW`` (npm ``workbox-build``, pinned in
  ``rulespy/render/offline/package-lock.json`` and installed by ``npm ci`` into ``build/offline/`` the
  first time, as the judge's Pyodide is). It precaches every page, the search index, the styles,
  scripts, icons and published scenarios of its edition, so that after one visit every page opens and
  search works with no network. Left out: the rulebook PDF, the past editions (``vX.Y/``; each is a
  site of its own), the other edition (it has its own worker), and the rules judge's runtime
  (Pyodide and ``rulespy.zip``, about 10 MB), which is kept only when the reader asks ("Keep the judge
  for offline use", ``assets/offline.js``);
- ``sw-judge.js``, imported by the worker before Workbox's own routes: it keeps the judge's runtime in
  a cache of its own on that request, answers the runtime's requests from that cache when it holds
  them, and refreshes it when a new worker (a new build) takes over;
- ``manifest.webmanifest``, so that the site can be installed, with its icons (``assets/icon-*.png``).

How ``sw.js`` is written: Workbox's ``generateSW`` bundles the worker (rollup, babel and terser: about
2.5 s of CPU) for every edition of every build, though two builds' workers differ only in their
precache lists. So ``build-sw.cjs`` bundles it once per set of options and keeps the bundle in
``build/offline/bundles/`` (keyed by the options, Workbox's version, the lock and the script itself):
``generateSW`` runs with one placeholder entry as its whole list, and the worker's code as rollup and
babel left it (before terser), terser's options and the Workbox runtime file (``workbox-HASH.js``)
are kept. A build then lists its files with Workbox's ``getManifest`` (the same listing ``generateSW``
makes), puts the list where the placeholder was and minifies with terser, as ``generateSW`` would: the
same ``sw.js`` and runtime, byte for byte (``tests/site/test_offline.py`` compares them with
``generateSW``'s own), for about 0.4 s of CPU an edition instead of 2.5 s. A bundle is kept only when
terser, given the placeholder's code, writes what ``generateSW`` wrote; otherwise (or should Workbox's
bundler ever stop calling terser as the script expects) every edition runs ``generateSW`` in full.
``keep_bundle`` makes it ahead of a build (the tests' copies of the repository share it with their
installs, ``rulespy.editions.site.share_installs``).

A new build is a new ``sw.js``: the browser installs it beside the old one, and ``assets/offline.js``
shows "New rules are available" with a Reload button, which lets the new worker take over.

Without npm the site is built all the same, without the offline copy, and says so (except under
``CI=true``, where it fails, as for the judge).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from rulespy.errors import BookError

from . import judge

PACKAGE = Path(__file__).resolve().parent / "offline"
INSTALL = Path("build") / "offline"
SCRIPT = "build-sw.cjs"
#: where ``SCRIPT`` keeps the bundled worker between builds, inside ``INSTALL``
BUNDLES = "bundles"
#: what the worker precaches, relative to its edition's root
PATTERNS = ["**/*.{html,css,js,json,svg,png,ico,xml,yaml,webmanifest,woff,woff2}", "pagefind/**/*"]
JUDGE_CACHE = "vs-judge-runtime"
#: the runtime files ``judge.publish`` copies in, relative to the English site's root
JUDGE_FILES = sorted(judge.RUNTIME_PATHS)
NAMES = {None: ("VoidSiege Rules", "Rules"), "ru": ("Правила VoidSiege", "Правила")}


class OfflineError(BookError):
    """The service worker cannot be written (npm or node missing, Workbox failed)."""

    def __init__(self, message: str, *, no_npm: bool = False) -> None:
        super().__init__(message)
        self.no_npm = no_npm


def npm_ci(package: Path, target: Path, wanted: Path) -> Path:
    """``target/node_modules``, running ``npm ci`` of ``package``'s package.json and lock into ``target``
    first when ``wanted`` (a path under ``node_modules``) is missing or the lock changed. The ``npm ci``
    itself is ``judge.npm_ci``'s, as for the judge's Pyodide; this adds the lock's copy and check, for
    Workbox, Pagefind (``rulespy.render.search``) and the tests' axe-core (``tests/axe/``)."""
    lock = (package / "package-lock.json").read_bytes()
    installed = target / "package-lock.json"
    modules = target / "node_modules"
    if installed.is_file() and installed.read_bytes() == lock and (modules / wanted).exists():
        return modules
    target.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(package / name, target / name)
    done = judge.npm_ci(target)  # the one npm step: ``npm ci`` with no install scripts
    if done is None:
        raise OfflineError(
            f"{package.name} needs npm, which is not installed (apt-get install npm)", no_npm=True
        )
    if done.returncode != 0 or not (modules / wanted).exists():
        installed.unlink(missing_ok=True)
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise OfflineError(f"npm ci into {target} failed: {detail[0]}")
    return modules


def manifest(language: str | None) -> bytes:
    """The web app manifest of edition ``language``: installable, opening on the edition's home page."""
    name, short = NAMES.get(language, NAMES[None])
    icons = [
        {"src": f"assets/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
        for size in (192, 512)
    ]
    data = {
        "name": name,
        "short_name": short,
        "lang": language or "en",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#3f51b5",
        "icons": icons,
    }
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode()


def judge_script(to_english_root: str) -> bytes:
    """``sw-judge.js`` for an edition whose root is ``to_english_root`` away from the English site's
    (``""`` or ``"../"``): the judge's runtime kept on request, served from that cache, refreshed."""
    files = json.dumps([to_english_root + path for path in JUDGE_FILES])
    return f"""// Written by rulespy/render/offline.py: never edit. Imported by sw.js before Workbox's routes.
const VS_JUDGE_CACHE = {json.dumps(JUDGE_CACHE)};
const VS_JUDGE_FILES = {files}.map((path) => new URL(path, self.registration.scope).href);

self.addEventListener("fetch", (event) => {{
  const url = event.request.url.split(/[?#]/)[0];
  if (event.request.method !== "GET" || !VS_JUDGE_FILES.includes(url)) return;
  event.respondWith(
    caches.open(VS_JUDGE_CACHE)
      .then((cache) => cache.match(url))
      .then((kept) => kept || fetch(event.request)),
  );
}});

function vsKeepJudge() {{
  return caches.open(VS_JUDGE_CACHE).then((cache) => cache.addAll(VS_JUDGE_FILES));
}}

self.addEventListener("message", (event) => {{
  if (!event.data || event.data.type !== "VS_KEEP_JUDGE") return;
  const answer = (data) => event.source && event.source.postMessage(data);
  event.waitUntil(vsKeepJudge().then(
    () => answer({{type: "VS_JUDGE_KEPT"}}),
    (error) => answer({{type: "VS_JUDGE_FAILED", error: String(error)}}),
  ));
}});

// a new build may bring a new runtime: a reader who kept the judge keeps the current one
self.addEventListener("activate", (event) => {{
  event.waitUntil(caches.has(VS_JUDGE_CACHE).then((kept) => kept && vsKeepJudge()).catch(() => null));
}});
""".encode()


def config(folder: Path, others: list[str]) -> dict[str, object]:
    """Workbox's ``generateSW`` options for the edition built into ``folder``; ``others``: the folders
    inside it that are not part of it (the other editions)."""
    ignored = ["judge/pyodide/**", f"judge/{judge.BUNDLE}", "**/*.pdf", "sw.js", "sw-judge.js", "v[0-9]*/**"]
    return {
        "globDirectory": str(folder),
        "globPatterns": PATTERNS,
        "globIgnores": ignored + [f"{other}/**" for other in others],
        "swDest": str(folder / "sw.js"),
        "importScripts": ["sw-judge.js"],
        "cleanupOutdatedCaches": True,
        "clientsClaim": True,  # the first visit's pages are served offline without a reload
        "skipWaiting": False,  # a new build waits until the reader presses Reload (assets/offline.js)
        "directoryIndex": "index.html",
        # search results link with ?h=words (Material's highlight), the search box with ?q=, and Pagefind
        # asks for its pagefind-entry.json with ?ts=TIME (rulespy.render.search)
        "ignoreURLParametersMatching": [r"^h$", r"^q$", r"^ts$", r"^utm_"],
        "maximumFileSizeToCacheInBytes": 8 << 20,
        "sourcemap": False,
        "mode": "production",
    }


def _installed(root: Path) -> tuple[str, Path, Path]:
    """Node, ``SCRIPT`` and Workbox's ``node_modules``, installed into ``root/INSTALL`` if need be."""
    modules = npm_ci(PACKAGE, Path(root) / INSTALL, Path("workbox-build") / "package.json")
    node = shutil.which("node")
    if node is None:
        raise OfflineError("the service worker needs Node.js (apt-get install nodejs)", no_npm=True)
    script = Path(root) / INSTALL / SCRIPT
    shutil.copyfile(PACKAGE / SCRIPT, script)
    return node, script, modules


def _workbox(
    root: Path, installed: tuple[str, Path, Path], options: list[dict[str, object]], *extra: str
) -> list[dict[str, Any]]:
    """Run ``SCRIPT`` on the ``generateSW`` options ``options``, bundles kept in
    ``root/INSTALL/BUNDLES``; the line of JSON it printed for each."""
    node, script, modules = installed
    env = {**os.environ, "NODE_PATH": str(modules.resolve())}
    kept = str((Path(root) / INSTALL / BUNDLES).resolve())
    # one node for every edition: Workbox's modules load once
    done = subprocess.run(
        [node, str(script.resolve()), json.dumps(options), kept, *extra],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        folders = ", ".join(str(option.get("globDirectory")) for option in options)
        raise OfflineError(f"workbox-build for {folders}: {detail[0]}")
    results = [json.loads(line) for line in done.stdout.strip().splitlines() if line.startswith("{")]
    if len(results) != len(options):
        raise OfflineError(f"workbox-build wrote {len(results)} service workers for {len(options)} editions")
    return results


def keep_bundle(root: Path) -> bool:
    """Make and keep, in ``root/INSTALL/BUNDLES``, the bundled worker every build of ``root`` uses (the
    first build makes it otherwise); whether it could be kept (else each build runs ``generateSW``)."""
    made = _workbox(root, _installed(root), [config(Path(root), [])], "--keep-only")
    return bool(made[0]["kept"])


def publish(root: Path, site_dir: Path, languages: list[str]) -> list[str]:
    """Write the manifest, ``sw-judge.js`` and Workbox's ``sw.js`` into the English site and each
    translation in ``languages`` (``SITE/<language>/``); one line per edition saying what it precaches."""
    installed = _installed(root)
    folders = [Path(site_dir) / language if language else Path(site_dir) for language in (None, *languages)]
    for language, folder in zip((None, *languages), folders, strict=True):
        (folder / "manifest.webmanifest").write_bytes(manifest(language))
        (folder / "sw-judge.js").write_bytes(judge_script("../" if language else ""))
    options = [
        config(folder.resolve(), [] if language else list(languages))
        for language, folder in zip((None, *languages), folders, strict=True)
    ]
    results = _workbox(root, installed, options)
    said = []
    for folder, result in zip(folders, results, strict=True):
        size = result["size"] / (1 << 20)
        said.append(f"The offline copy of {folder}: {result['count']} files, {size:.1f} MB (sw.js)")
    return said
