/* Leaderboards: a page of ranks from the API, my row highlighted (pinned below when it is on
 * another page), the stats and the score histogram. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;

  function Board(node) {
    this.node = node;
    this.url = node.dataset.url;
    this.par = parseInt(node.dataset.par, 10) || null;
    this.verify = node.dataset.verify || "";
    // The address's page and filter, written as the API takes them (a whole page number from 1,
    // accounts=true); "1" is what the address said before the API took only true or false.
    this.page = Math.max(1, parseInt(new URLSearchParams(window.location.search).get("page"), 10) || 1);
    this.pages = 1;
    var self = this;
    node.querySelector('[data-page="prev"]').addEventListener("click", function () { self.go(self.page - 1); });
    node.querySelector('[data-page="next"]').addEventListener("click", function () { self.go(self.page + 1); });
    document.addEventListener("farkle:finished", function () { self.load(); });
    var shown = new URLSearchParams(window.location.search).get("accounts");
    this.accounts = shown === "true" || shown === "1";
    var accounts = this.role("accounts");
    accounts.checked = this.accounts;
    accounts.addEventListener("change", function () {
      self.accounts = accounts.checked;
      self.page = 1;
      self.go(1, true);
    });
    this.load();
  }

  Board.prototype.role = function (name) {
    return this.node.querySelector('[data-role="' + name + '"]');
  };

  Board.prototype.go = function (page, force) {
    if (!force && (page < 1 || page > this.pages)) return;
    this.page = page;
    var url = new URL(window.location.href);
    if (page === 1) url.searchParams.delete("page");
    else url.searchParams.set("page", String(page));
    if (this.accounts) url.searchParams.set("accounts", "true");
    else url.searchParams.delete("accounts");
    window.history.replaceState(null, "", url);
    this.load();
  };

  Board.prototype.load = function () {
    var self = this;
    self.node.setAttribute("aria-busy", "true");
    F.api(self.url + "?page=" + self.page + (self.accounts ? "&accounts=true" : "")).then(function (data) {
      self.render(data);
    }).catch(function (err) {
      var rows = self.role("rows");
      rows.textContent = "";
      rows.appendChild(F.el("tr", {}, [F.el("td", { colspan: "3", class: "muted", text: F.errorMessage(err) })]));
    }).then(function () {
      self.node.setAttribute("aria-busy", "false");
    });
  };

  Board.prototype.render = function (data) {
    var self = this;
    var dist = data.distribution;
    var stat = function (name, value) {
      var dd = self.node.querySelector('[data-stat="' + name + '"]');
      if (dd) dd.textContent = value;
    };
    stat("players", F.fmt(data.players));
    // docs/play.md: before the close the API shows the scores only to a caller whose official
    // game here is finished; to anyone else, how many have finished and an invitation to play.
    var hidden = data.revealed === false;
    self.node.dataset.revealed = hidden ? "0" : "1";
    self.role("hidden-scores").hidden = !hidden;
    self.role("accounts-label").hidden = hidden;
    self.role("table").closest(".table-scroll").hidden = hidden;
    // Nobody ranked (yet, or with the filter on): no best, median or mean to show as dashes.
    var nobody = !hidden && !data.players;
    ["best", "median", "mean"].forEach(function (name) {
      self.node.querySelector('[data-stat="' + name + '"]').parentNode.hidden = hidden || nobody;
    });
    if (hidden) {
      self.role("histogram").hidden = true;
      self.role("me").hidden = true;
      self.role("pager").hidden = true;
      self.role("hidden-count").textContent = data.players
        ? F.interpolate(F.ngettext("%(n)s player has finished so far.", "%(n)s players have finished so far.", data.players), { n: F.fmt(data.players) }, true)
        : self.node.dataset.playable ? _("Nobody has finished yet. Be the first!") : _("Nobody has finished yet.");
      return;
    }
    stat("best", F.fmt(dist.best));
    stat("median", F.fmt(dist.median));
    stat("mean", dist.mean === null ? "–" : F.fmt(Math.round(dist.mean)));

    var me = data.me;
    F.histogram(self.role("histogram"), dist.histogram, {
      mine: me ? me.score : null,
      par: self.par,
      caption: _("Scores, in bars of 500 points. The dashed line is par."),
    });

    var meLine = self.role("me");
    if (me) {
      var text = F.interpolate(_("You: rank %(rank)s with %(score)s"), { rank: F.fmt(me.rank), score: F.fmt(me.score) }, true);
      if (me.percentile !== null) text += " · " + F.interpolate(_("you beat %(pct)s of players"), { pct: F.pct(me.percentile / 100, 1) }, true);
      meLine.textContent = text;
      meLine.hidden = false;
    } else {
      meLine.hidden = true;
    }

    self.pages = Math.max(1, data.pages);
    var rows = self.role("rows");
    rows.textContent = "";
    if (!data.entries.length) {
      // "Be the first" only while a new game can still reach this board.
      var empty = self.node.dataset.playable ? _("Nobody has finished yet. Be the first!") : _("Nobody finished a game here.");
      rows.appendChild(F.el("tr", {}, [F.el("td", { colspan: "3", class: "muted", text: data.players ? _("No one on this page.") : empty })]));
    }
    var mineShown = false;
    // Issue 12: the optimal player on the same dice, a row that takes no rank, in score order.
    // An empty board says nobody finished, with no reference to compare against.
    var reference = data.entries.length ? data.reference : null;
    var referenceRow = reference ? F.el("tr", { class: "reference", "data-role": "reference" }, [
      F.el("td", { class: "num muted", text: "–" }),
      F.el("td", {}, [_("Optimal player (takes no rank)")]),
      F.el("td", { class: "r num", text: F.fmt(reference.score) }),
    ]) : null;
    data.entries.forEach(function (entry) {
      var mine = entry.mine;
      if (mine) mineShown = true;
      if (referenceRow && entry.score < reference.score) {
        rows.appendChild(referenceRow);
        referenceRow = null;
      }
      rows.appendChild(self.row(entry, mine));
    });
    if (referenceRow && data.page >= data.pages) rows.appendChild(referenceRow);
    if (me && !mineShown) {
      rows.appendChild(F.el("tr", { class: "gap", "aria-hidden": "true" }, [F.el("td", { colspan: "3", text: "⋯" })]));
      rows.appendChild(self.row(me, true, true));
    }

    var pager = self.role("pager");
    pager.hidden = self.pages <= 1;
    self.role("page-label").textContent = F.interpolate(_("Page %(page)s of %(pages)s"), { page: F.fmt(data.page), pages: F.fmt(self.pages) }, true);
    pager.querySelector('[data-page="prev"]').disabled = data.page <= 1;
    pager.querySelector('[data-page="next"]').disabled = data.page >= self.pages;
  };

  Board.prototype.row = function (entry, mine, pinned) {
    var name = F.el("td", {}, [entry.name]);
    if (mine) name.appendChild(F.el("span", { class: "badge you", text: _("you") }));
    if (typeof entry.time_taken === "number") {
      // A timed challenge (issue 14): the time taken breaks ties.
      var secs = Math.round(entry.time_taken);
      name.appendChild(F.el("span", { class: "small muted time-taken", text: " · " + F.interpolate(_("%(m)s min %(s)s s"), { m: Math.floor(secs / 60), s: ("0" + (secs % 60)).slice(-2) }, true) }));
    }
    if (entry.attempt && this.verify) {
      name.appendChild(document.createTextNode(" "));
      name.appendChild(F.el("a", {
        class: "small", href: "/verify?" + this.verify + "&attempt=" + entry.attempt,
        title: _("Recompute this game's throws"), text: _("check"),
      }));
    }
    // Others' games are visible once the puzzle has closed (the API gives the id only then).
    if (entry.attempt) {
      name.appendChild(document.createTextNode(" "));
      name.appendChild(F.el("a", { class: "small", "data-role": "replay-link", href: "/attempts/" + entry.attempt + "/replay", text: _("replay") }));
    }
    return F.el("tr", { class: mine ? "me" : "", "aria-current": mine ? "true" : null, "data-pinned": pinned ? "1" : null }, [
      F.el("td", { class: "num", text: "#" + F.fmt(entry.rank) }),
      name,
      F.el("td", { class: "r num", text: F.fmt(entry.score) }),
    ]);
  };

  document.querySelectorAll("[data-board]").forEach(function (node) { new Board(node); });
})();
