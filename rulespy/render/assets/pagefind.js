// The site's search engine for a question asked in a player's words (rulespy/render/search.py writes
// the index: every section of the edition a document of Pagefind's, its concepts' other names and the
// players' phrasings weighed like its title).
//
// This module stands in front of Pagefind's own pagefind.js (the edition's pagefind/ folder) and exports
// what Pagefind's search UI imports from it, unchanged but for `search`: Pagefind finds only the
// documents holding every word of a query, and a spoken question ("can my unit shoot if it is within
// 1 inch of an enemy") rarely has all its words in one section. So `search`
//   1. drops the question's small words (STOP, per language: "can", "my", "is", "of"...), which say
//      nothing about the rule asked for;
//   2. asks Pagefind for each remaining word on its own, and ranks each section by the sum of its
//      scores over the words (Pagefind's own relevance scores, each weighed by its index's term
//      rarity: the sum is what an "any of these words" search ranks by);
//   3. puts first the sections Pagefind finds for all the words together, when there are any.
// and `options` sets Pagefind's ranking for sections (RANKING).
// The results are in Pagefind's shape, so its UI draws them as its own.
import * as pagefind from "../pagefind/pagefind.js"; // this module is assets/pagefind.js of its edition

export const { createInstance, debouncedSearch, destroy, filters, init, mergeIndex, preload } = pagefind;

// Pagefind's ranking, but for the length of a document: each document is one section, and a long
// section is as often the answer as a short one (Pagefind's default pageLength, 0.75, favours short
// pages; 0.1 answered two more of the table questions in English: bench/README.md).
const RANKING = { pageLength: 0.1 };

export function options(given = {}) {
  return pagefind.options({ ...given, ranking: { ...RANKING, ...(given.ranking || {}) } });
}

const STOP = {
  en: new Set(
    ("a an the is are am was were be been being do does did doing done can could will would shall should " +
      "may might must i me my mine we us our you your he him his she her it its they them their this that " +
      "these those what which who whom whose when where why how if then than so of in on at to from by " +
      "for with about into onto or and but there here any some just only also very too as get gets got " +
      "have has had let lets still ever even " +
      // the words of asking, on a site where every page is a rule
      "happen happens mean means need needs rule rules work works").split(" "),
  ),
  ru: new Set(
    ("и в во не что он на я с со как а то все всё она так его но да ты к у же вы за бы по только ее её " +
      "мне было вот от меня еще ещё о из ему теперь когда даже ну ли если уже или ни быть был него до вас " +
      "нибудь уж вам ведь там потом себя ей они тут где есть надо ней для мы тебя их чем была сам " +
      "чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой какая какие " +
      "какое ним здесь этом мой моя моё мое мои моего моих моим моей тем чтобы нее сейчас были куда " +
      "зачем всех при об хоть над нас про всего них разве эту свою этой перед том им между это эти " +
      "меня мной мою можно ли " +
      "нужен нужна нужно нужны значит значат бывает происходит правило правила работает").split(" "),
  ),
};

function language() {
  return (document.documentElement.lang || "en").slice(0, 2) === "ru" ? "ru" : "en";
}

/** The words of `query` worth searching for: lower case, without punctuation and small words. */
export function words(query, lang = language()) {
  const stop = STOP[lang] || STOP.en;
  const all = query
    .toLocaleLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]+/gu, " ")
    .split(/\s+/)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ""))
    .filter(Boolean);
  const kept = all.filter((w) => !stop.has(w));
  return kept.length ? [...new Set(kept)] : all;
}

export async function search(query, searchOptions = {}) {
  if (query === null) return pagefind.search(null, searchOptions); // Pagefind's "filters only"
  const terms = words(query);
  if (terms.length <= 1) return pagefind.search(terms.join(" "), searchOptions);
  const [together, ...each] = await Promise.all([
    pagefind.search(terms.join(" "), searchOptions),
    ...terms.map((term) => pagefind.search(term, searchOptions)),
  ]);
  const ranked = new Map();
  for (const found of each) {
    for (const result of (found && found.results) || []) {
      const seen = ranked.get(result.id);
      if (seen) {
        seen.score += result.score;
        seen.words = [...new Set([...seen.words, ...result.words])];
      } else {
        ranked.set(result.id, { ...result, words: [...result.words] });
      }
    }
  }
  const first = ((together && together.results) || []).map((r) => r.id);
  const bonus = (id) => (first.includes(id) ? 1 : 0);
  const results = [...ranked.values()].sort((a, b) => bonus(b.id) - bonus(a.id) || b.score - a.score);
  const base = together || each[0];
  return { ...base, results, unfilteredResultCount: results.length };
}
