/* The results panel at the end of the daily (issue 13 items 5-6): my streaks, my own distribution
 * with this game's bar marked, the countdown to the next daily, my groups' standings, and Share
 * through the system share sheet where there is one. The play view (static/js/play/view.js) calls
 * FarkleResults.render from its end panel; everything here comes from /api/me and /api/groups. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;

  function stat(label, value, role) {
    return F.el("div", { class: "results-stat" }, [
      F.el("dt", { text: label }),
      F.el("dd", { "data-role": role, text: value }),
    ]);
  }

  function renderStreaks(panel, me) {
    var s = me.stats;
    panel.appendChild(F.el("dl", { class: "results-stats" }, [
      stat(_("Current streak"), F.fmt(s.current_streak), "current-streak"),
      stat(_("Best streak"), F.fmt(s.best_streak), "best-streak"),
      stat(_("Dailies finished"), F.fmt(s.finished), "finished"),
    ]));
  }

  function renderDistribution(panel, me, score) {
    var scores = me.history.filter(function (r) { return r.state === "finished"; }).map(function (r) { return r.score; });
    if (!scores.length) return;
    var width = 500;
    var top = Math.max.apply(null, scores.concat([score]));
    var buckets = [];
    for (var start = 0; start <= top; start += width) buckets.push({ start: start, end: start + width, count: 0 });
    scores.forEach(function (s) { buckets[Math.floor(s / width)].count += 1; });
    var figure = F.el("figure", { class: "histogram", "data-role": "my-distribution" });
    panel.appendChild(F.el("h3", { text: _("My dailies") }));
    panel.appendChild(figure);
    function draw() {
      F.histogram(figure, buckets, {
        mine: score,
        mineLabel: _("Today"),
        caption: _("My scores, in bars of 500 points (latest 30 dailies)."),
      });
    }
    draw();
    // Drawn at its width, which a folded panel (the end screen's "More", issue 40) has not yet.
    var fold = panel.closest("details");
    if (fold) fold.addEventListener("toggle", function () { if (fold.open) draw(); });
  }

  function renderCountdown(panel) {
    var source = document.querySelector("[data-countdown]");
    if (!source) return;
    var value = F.el("strong", { "data-role": "next-daily", text: "--:--:--" });
    panel.appendChild(F.el("p", { class: "results-next" }, [_("Next daily in") + " ", value]));
    var until = Date.parse(source.dataset.until);
    var offset = Date.parse(source.dataset.serverNow) - Date.now();
    function pad(n) { return n < 10 ? "0" + n : String(n); }
    function tick() {
      var left = Math.max(0, Math.floor((until - (Date.now() + offset)) / 1000));
      if (!left) {
        value.textContent = _("now: reload for the new daily");
        return;
      }
      value.textContent = pad(Math.floor(left / 3600)) + ":" + pad(Math.floor(left / 60) % 60) + ":" + pad(left % 60);
      window.setTimeout(tick, 1000 - (Date.now() % 1000) + 5);
    }
    tick();
  }

  function renderGroups(panel, groups) {
    var section = F.el("div", { class: "results-groups", "data-role": "group-standings" });
    section.appendChild(F.el("h3", { text: _("My groups today") }));
    if (!groups.length) {
      section.appendChild(F.el("p", { class: "small" }, [
        _("Compare with friends every day:") + " ",
        F.el("a", { href: "/g/", text: _("create or join a group") }),
      ]));
      panel.appendChild(section);
      return;
    }
    var list = F.el("ul", { class: "list-plain" });
    groups.forEach(function (g) {
      var line = g.my_rank !== null
        ? F.interpolate(_("rank %(rank)s of %(finished)s played"), { rank: F.fmt(g.my_rank), finished: F.fmt(g.finished) }, true)
        : F.interpolate(_("%(finished)s of %(members)s played"), { finished: F.fmt(g.finished), members: F.fmt(g.members) }, true);
      if (g.leader !== null) line += " · " + F.interpolate(_("best: %(name)s %(score)s"), { name: g.leader, score: F.fmt(g.leader_score) }, true);
      list.appendChild(F.el("li", {}, [
        F.el("a", { href: "/g/" + g.code, text: g.name }),
        F.el("span", { class: "small muted", text: line }),
      ]));
    });
    section.appendChild(list);
    section.appendChild(F.el("p", { class: "small" }, [F.el("a", { href: "/g/", "data-role": "see-groups", text: _("See how your groups did") })]));
    panel.appendChild(section);
  }

  /* The system share sheet first (phones); the play controller's own handler (clipboard, else the box to
   * copy by hand) runs when there is none or when it fails. */
  function wireShare(button, text) {
    if (!button || !navigator.share) return;
    button.addEventListener("click", function (event) {
      if (button.dataset.shareFallback) {
        delete button.dataset.shareFallback;
        return;
      }
      event.stopImmediatePropagation();
      navigator.share({ text: typeof text === "function" ? text() : text }).catch(function (err) {
        if (err && err.name === "AbortError") return;
        button.dataset.shareFallback = "1";
        button.click();
      });
    }, true);
  }

  function render(end, options) {
    wireShare(options.shareButton, options.text);
    if (options.kind !== "daily" || !options.attempt.official) return;
    var panel = F.el("section", { class: "results", "data-role": "results", "aria-labelledby": "results-title" });
    panel.appendChild(F.el("h3", { id: "results-title", class: "sr-only", text: _("My results") }));
    end.appendChild(panel);
    renderCountdown(panel);
    F.api("/api/me").then(function (me) {
      // In the page before the chart is drawn: it is drawn at the width it is given.
      var box = panel.insertBefore(F.el("div"), panel.querySelector(".results-next"));
      renderStreaks(box, me);
      renderDistribution(box, me, options.attempt.score);
    }).catch(function () {});
    F.api("/api/groups").then(function (groups) { renderGroups(panel, groups); }).catch(function () {});
  }

  window.FarkleResults = { render: render };
})();
