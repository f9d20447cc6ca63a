// The site offline at the table (rulespy/render/offline.py writes the worker and the manifest).
//
// - Links the edition's manifest.webmanifest (the site can be installed on a phone) and registers its
//   service worker, sw.js (Workbox): after this first visit every page of the edition, its search
//   index and its assets open with no network.
// - When a new build of the rules is published, the browser installs its worker beside the running
//   one; a notice says so, and its Reload button lets the new worker take over and reloads the page.
// - "Keep the judge for offline use" (on the home page and the Judge page) asks the worker to keep the
//   rules judge's runtime (Pyodide and rulespy, about 10 MB), which is never downloaded otherwise.
(() => {
  "use strict";
  const script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  const root = new URL("../", script.src); // this script is assets/offline.js of its edition
  const ru = (document.documentElement.lang || "").startsWith("ru");
  const said = ru
    ? {
        update: "Вышла новая редакция правил.",
        reload: "Перезагрузить",
        keep: "Сохранить судью для работы без сети",
        keeping: "Сохраняется (около 10 МБ)…",
        kept: "Судья сохранён: «Попробовать» и страница судьи работают без сети.",
        failed: "Не удалось сохранить судью: ",
      }
    : {
        update: "New rules are available.",
        reload: "Reload",
        keep: "Keep the judge for offline use",
        keeping: "Keeping it (about 10 MB)…",
        kept: "The judge is kept: Try it and the Judge page work offline.",
        failed: "The judge could not be kept: ",
      };

  if (!document.querySelector('link[rel="manifest"]')) {
    const link = document.createElement("link");
    link.rel = "manifest";
    link.href = new URL("manifest.webmanifest", root).href;
    document.head.append(link);
  }

  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) window.location.reload();
  });

  function notice(worker) {
    if (document.querySelector(".vs-update")) return;
    const box = document.createElement("div");
    box.className = "vs-update";
    box.setAttribute("role", "status");
    const text = document.createElement("span");
    text.textContent = said.update + " ";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "md-button md-button--primary";
    button.textContent = said.reload;
    button.addEventListener("click", () => {
      reloading = true;
      worker.postMessage({ type: "SKIP_WAITING" }); // Workbox's own message to a waiting worker
    });
    box.append(text, button);
    document.body.append(box);
  }

  function keepButton() {
    const anchor = document.querySelector(".vs-judge-page, .vs-home-judge");
    if (!anchor || document.querySelector(".vs-keep-judge")) return;
    const box = document.createElement("p");
    box.className = "vs-keep-judge";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "md-button";
    button.textContent = said.keep;
    const state = document.createElement("span");
    state.setAttribute("role", "status");
    button.addEventListener("click", () => {
      navigator.serviceWorker.ready.then((registration) => {
        state.textContent = " " + said.keeping;
        registration.active.postMessage({ type: "VS_KEEP_JUDGE" });
      });
    });
    box.append(button, state);
    anchor.before(box);
  }

  navigator.serviceWorker.addEventListener("message", (event) => {
    const state = document.querySelector(".vs-keep-judge [role=status]");
    if (!state || !event.data) return;
    if (event.data.type === "VS_JUDGE_KEPT") state.textContent = " " + said.kept;
    if (event.data.type === "VS_JUDGE_FAILED") state.textContent = " " + said.failed + event.data.error;
  });

  navigator.serviceWorker.register(new URL("sw.js", root).href, { scope: root.href }).then((registration) => {
    if (registration.waiting && navigator.serviceWorker.controller) notice(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const worker = registration.installing;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed" && navigator.serviceWorker.controller) notice(worker);
      });
    });
  }, () => null); // no worker (a build without npm, file://): the site works online as before

  keepButton();
  if (typeof document$ !== "undefined") document$.subscribe(keepButton); // Material's instant navigation
})();
