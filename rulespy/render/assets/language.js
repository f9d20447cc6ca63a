// Links to the other edition's site (rulespy/render/languages.py): the language switcher, which leads to
// the same page and carries the section being read (the URL's #id, kept current while scrolling by
// Material's navigation.tracking; both editions give a rule the same id), and a stale section's link to
// the English text. Each is followed from its data-vs-href, relative to the page's URL, as a full load:
// another site, never a page for Material's instant navigation.
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
