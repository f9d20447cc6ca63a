// Links to the other edition's site (rulespy/render/languages.py). The page's switcher leads to the same
// page and carries the section being read (the URL's #id, kept current by Material's navigation.tracking;
// both editions give a rule the same id); each section heading also gets a small link of its own to the
// same section of the other edition, so a reader deep in a page switches without scrolling back up.
// Every such link is followed from its data-vs-href (relative to the page's URL, so the site works under
// any folder) as a full load: it is another site, never a page for Material's instant navigation.
(function () {
  function sectionLinks() {
    var switchers = document.querySelectorAll("a.vs-language-link");
    var headings = document.querySelectorAll(".md-content h2[id], .md-content h3[id], .md-content h4[id]");
    switchers.forEach(function (page) {
      var lang = page.getAttribute("hreflang");
      headings.forEach(function (heading) {
        if (heading.id === "referenced-by" || heading.querySelector('a.vs-section-language[hreflang="' + lang + '"]')) return;
        var link = document.createElement("a");
        link.className = "vs-section-language";
        link.setAttribute("hreflang", lang);
        link.setAttribute("lang", lang);
        link.setAttribute("title", page.textContent);
        link.setAttribute("href", page.getAttribute("href").split("#")[0] + "#" + heading.id);
        link.setAttribute("data-vs-href", page.getAttribute("data-vs-href").split("#")[0] + "#" + heading.id);
        link.textContent = lang;
        heading.appendChild(link);
      });
    });
  }
  // On a translation (its switcher carries data-vs-current-rules): the theme's version selector, which
  // Material draws once it has read versions.json, names the current rules in the edition's words, and
  // each edition's link leads to this edition's site inside it (/v1.0/ru/ rather than /v1.0/), where
  // Material's own handler then finds the same page in that edition's sitemap.
  function versionSelector() {
    var source = document.querySelector("[data-vs-current-rules]");
    var lang = document.documentElement.getAttribute("lang");
    if (!source || !lang) return;
    var current = source.getAttribute("data-vs-current-rules");
    document.querySelectorAll(".md-version__current, .md-version__link").forEach(function (item) {
      if (item.textContent.trim() === "current rules") item.textContent = current;
      if (item.tagName === "A" && !item.hasAttribute("data-vs-edition")) {
        var root = new URL(item.getAttribute("href"), window.location.href);
        if (!root.pathname.endsWith("/" + lang + "/")) root.pathname = root.pathname.replace(/\/?$/, "/") + lang + "/";
        item.setAttribute("href", root.href);
        item.setAttribute("data-vs-edition", lang);
      }
    });
  }
  function watchVersions() {
    versionSelector();
    var header = document.querySelector(".md-header");
    if (header && window.MutationObserver && !header.vsWatched) {
      header.vsWatched = true;
      new MutationObserver(versionSelector).observe(header, {childList: true, subtree: true});
    }
  }
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(watchVersions);
    window.document$.subscribe(sectionLinks);  // Material: after every instant page load too
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", sectionLinks);
    document.addEventListener("DOMContentLoaded", watchVersions);
  } else {
    sectionLinks();
    watchVersions();
  }
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("a[data-vs-href]") : null;
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = new URL(link.getAttribute("data-vs-href"), window.location.href);
    if (link.classList.contains("vs-language-link") && window.location.hash) {
      target.hash = window.location.hash;
    }
    event.preventDefault();
    event.stopPropagation();
    window.location.assign(target.href);
  }, true);
})();
