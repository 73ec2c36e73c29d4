/* The game board's renderer: writes the page from a view-model (play/model.js) and does nothing
 * else. It remembers only what it drew, so that a render with the same throw keeps the focused
 * die, a banner shows once, and the end panel is built once per game. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;
  var say = function (format, args) { return F.interpolate(format, args, true); };

  /* Every text of the board by its id, in the page's language. */
  var TEXTS = {
    loading: function () { return _("Loading…"); },
    press_roll: function () { return _("Press Roll to start."); },
    farkle_next: function (a) { return say(_("Farkle! Turn %(turn)s scored nothing. Roll to start turn %(next)s."), a); },
    rethrow: function () { return _("A pair that scores nothing is not a Farkle here: roll these dice again, your points stay."); },
    roll_count: function (a) { return say(F.ngettext("Turn %(turn)s: roll %(count)s die.", "Turn %(turn)s: roll %(count)s dice.", a.count), a); },
    keep_for: function (a) {
      var line = say(F.ngettext("Keep for %(points)s (turn: %(total)s) · then %(left)s die to roll", "Keep for %(points)s (turn: %(total)s) · then %(left)s dice to roll", a.left), {
        points: F.fmt(a.points), total: F.fmt(a.total), left: a.left,
      });
      if (a.hot) line += " · 🔥 " + _("hot dice!");
      // Why Keep & bank is greyed: the entry minimum (issue 40).
      if (a.needs) line += " · " + say(_("you need %(points)s in one turn to open"), { points: F.fmt(a.needs) });
      return line;
    },
    refused: function () { return _("These dice don't score together: every kept die must score."); },
    hot_select: function () { return _("Hot dice! All the dice are back: select the dice to keep."); },
    select: function () { return _("Select the dice to keep."); },
    game_over: function () { return _("Game over"); },
    day_closing: function () { return _("This day is closing: archive play opens shortly."); },
    challenge_closed: function () { return _("This challenge has closed."); },
    first_counts: function () { return _("Your first game counts."); },
    practice_unranked: function () { return _("Practice: not ranked."); },
    retry_unranked: function () { return _("Retry from a decision: practice, not ranked."); },
    counts: function () { return _("Counts for the leaderboard."); },
    farkle_word: function () { return _("Farkle!"); },
    points_lost: function (a) { return say(_("%(points)s points lost"), { points: F.fmt(a.points) }); },
    nothing_scores: function () { return _("Nothing scores"); },
    timeout_word: function () { return _("Time's up"); },
    turn_lost: function () { return _("turn lost"); },
    timeout_said: function (a) { return say(_("Time's up: turn %(turn)s is lost, with nothing banked."), a); },
    hot_word: function () { return _("Hot dice!"); },
    hot_sub: function () { return _("All the dice come back"); },
    bank_word: function (a) { return "+" + F.fmt(a.points); },
    bank_sub: function () { return _("banked"); },
    throw: function (a) { return say(_("Turn %(turn)s, throw %(roll)s: %(dice)s."), { turn: a.turn, roll: a.roll, dice: a.dice.join(", ") }); },
    hot_said: function () { return _("Hot dice! All the dice come back."); },
    farkle_said: function (a) { return say(_("Farkle! Turn %(turn)s threw %(dice)s: nothing scores."), { turn: a.turn, dice: a.dice.join(", ") }); },
    points_lost_said: function (a) { return say(_("%(points)s points lost."), { points: F.fmt(a.points) }); },
    banked_said: function (a) { return say(_("Banked %(points)s. Score %(score)s."), { points: F.fmt(a.points), score: F.fmt(a.score) }); },
    game_over_said: function (a) { return say(_("Game over: %(score)s points."), { score: F.fmt(a.score) }); },
    practice_unranked_end: function () { return _("Practice games are not ranked."); },
    ranking: function () { return _("Ranking…"); },
    rank: function (a) {
      var line = say(_("Rank %(rank)s of %(players)s"), { rank: F.fmt(a.rank), players: F.fmt(a.players) });
      if (a.percentile !== null) return line + " · " + say(_("you beat %(pct)s of players"), { pct: F.pct(a.percentile / 100, 1) });
      return line + " · " + _("the first to finish");
    },
    rank_later: function () { return _("Your rank appears once the result is counted."); },
    again_same: function () { return _("Play again (practice, same dice)"); },
    again_new: function () { return _("Play again (practice, new dice)"); },
  };

  function words(t) {
    return t ? TEXTS[t.id](t.args) : "";
  }

  /* The result as text, without dice: the score with the accuracy beside it (issue 40), the
   * squares of the player's palette, the link. */
  function shareText(share) {
    var head = "Farkle Daily " + (share.challenge ? _("challenge") + " " : "") + share.label;
    if (share.practice) head += " (" + _("practice") + ")";
    var result = F.fmt(share.score);
    if (share.accuracy !== null && share.accuracy !== undefined) {
      result += " · " + say(_("accuracy %(accuracy)s"), { accuracy: F.pct(share.accuracy / 100, 1) });
    }
    return head + ": " + result + "\n" + share.squares + "\n" + share.url;
  }

  function Renderer(root) {
    var q = function (role) { return root.querySelector('[data-role="' + role + '"]'); };
    this.root = root;
    this.ui = {
      mode: q("mode"), status: q("status"), score: q("score"), turn: q("turn"), turns: q("turns-total"),
      turnPoints: q("turn-points"), risk: q("risk"), riskBox: q("risk-box"), banner: q("banner"),
      kept: q("kept"), dice: q("dice"), selection: q("selection"), error: q("error"),
      scorecard: q("scorecard"), end: q("end"),
      roll: root.querySelector('[data-action="roll"]'),
      keepRoll: root.querySelector('[data-action="keep-roll"]'),
      keepBank: root.querySelector('[data-action="keep-bank"]'),
    };
    this.drawn = { dice: null, banner: null, end: null, board: null, analysis: null };
    this.bannerTimer = null;
    this.hideTimer = null;
  }

  Renderer.prototype.render = function (vm) {
    var ui = this.ui;
    var root = this.root;
    root.dataset.state = vm.state;
    root.dataset.step = vm.step;
    root.dataset.attempt = vm.attempt;
    root.setAttribute("aria-busy", vm.busy ? "true" : "false");

    ui.mode.hidden = !vm.mode;
    if (vm.mode) {
      ui.mode.textContent = vm.mode.official ? _("Official") : _("Practice");
      ui.mode.className = "badge" + (vm.mode.official ? "" : " practice");
    }
    ui.status.textContent = words(vm.status);
    ui.score.textContent = F.fmt(vm.score);
    ui.turn.textContent = String(vm.turn);
    if (ui.turns && vm.turnsTotal) ui.turns.textContent = "/" + vm.turnsTotal;
    ui.turnPoints.textContent = F.fmt(vm.turnPoints);
    ui.risk.textContent = vm.risk === null ? "–" : F.pct(vm.risk, 1);
    ui.riskBox.classList.toggle("risk-high", vm.riskHigh);

    this.kept(vm.kept);
    this.dice(vm.dice, vm.busy);
    ui.selection.className = "selection" + (vm.selection.tone ? " " + vm.selection.tone : "");
    ui.selection.textContent = words(vm.selection.text);
    this.button(ui.roll, vm.buttons.roll);
    this.button(ui.keepRoll, vm.buttons.keepRoll);
    this.button(ui.keepBank, vm.buttons.keepBank);
    this.scorecard(vm.scorecard);
    this.banner(vm.banner);
    root.classList.toggle("is-finished", vm.finished);
    this.end(vm.end);
  };

  Renderer.prototype.button = function (node, state) {
    node.hidden = state.hidden;
    node.disabled = state.disabled;
  };

  Renderer.prototype.error = function (message) {
    this.ui.error.textContent = message || "";
    this.ui.error.hidden = !message;
  };

  Renderer.prototype.kept = function (groups) {
    var node = this.ui.kept;
    node.textContent = "";
    if (!groups.length) {
      node.appendChild(F.el("span", { class: "empty", text: _("Nothing kept yet.") }));
      return;
    }
    groups.forEach(function (g) {
      var group = F.el("span", { class: "group", title: F.fmt(g.points), role: "img",
        "aria-label": say(_("kept %(dice)s for %(points)s"), { dice: g.faces.join(", "), points: F.fmt(g.points) }) });
      g.faces.forEach(function (f) { group.appendChild(F.die(f, "mini", false)); });
      group.appendChild(F.el("span", { class: "pts", text: "+" + F.fmt(g.points) }));
      node.appendChild(group);
      if (g.hot) node.appendChild(F.el("span", { class: "badge hot", "data-hot": "1", text: "🔥 " + _("Hot dice") }));
    });
  };

  Renderer.prototype.dice = function (dice, busy) {
    var node = this.ui.dice;
    node.classList.toggle("refused", dice.refused);
    node.classList.toggle("farkled", dice.farkled);
    if (this.drawn.dice === dice.key) {
      // The same throw: only the selection and the busy state change, the focus stays put.
      node.querySelectorAll(".die-btn").forEach(function (button) {
        var face = dice.faces[parseInt(button.dataset.pos, 10)];
        button.setAttribute("aria-pressed", face && face.pressed ? "true" : "false");
        button.disabled = busy;
      });
      return;
    }
    this.drawn.dice = dice.key;
    node.textContent = "";
    node.classList.remove("rolling");
    if (dice.choose) {
      dice.faces.forEach(function (d) {
        node.appendChild(F.el("button", {
          type: "button", class: "die-btn", "data-pos": String(d.position), "data-face": String(d.face),
          "aria-pressed": d.pressed ? "true" : "false",
          "aria-label": say(_("Die %(n)s: %(face)s"), { n: d.position + 1, face: d.face }),
          disabled: busy,
        }, [F.die(d.face, null, false), F.el("span", { class: "pos", "aria-hidden": "true", text: String(d.position + 1) })]));
      });
      if (dice.rolled) {
        void node.offsetWidth; // restart the roll animation for the new throw
        node.classList.add("rolling");
      }
      return;
    }
    dice.faces.forEach(function (face) { node.appendChild(F.die(face)); });
    for (var i = 0; i < dice.blank; i++) node.appendChild(F.die(0, null, false));
  };

  Renderer.prototype.scorecard = function (rows) {
    var node = this.ui.scorecard;
    node.textContent = "";
    rows.forEach(function (row) {
      var value = "·";
      var label = say(_("Turn %(n)s: not played"), { n: row.n });
      if (row.kind === "farkle") {
        value = "✗";
        label = say(_("Turn %(n)s: Farkle"), { n: row.n });
      } else if (row.kind === "timeout") {
        value = "✗";
        label = say(_("Turn %(n)s: time ran out"), { n: row.n });
      } else if (row.kind === "banked") {
        value = F.fmt(row.points);
        label = say(_("Turn %(n)s: %(points)s banked"), { n: row.n, points: F.fmt(row.points) });
      } else if (row.current) {
        value = F.fmt(row.points);
        label = say(_("Turn %(n)s: playing, %(points)s at stake"), { n: row.n, points: F.fmt(row.points) });
      }
      node.appendChild(F.el("li", { class: row.kind, "aria-label": label, "aria-current": row.current ? "step" : null }, [
        F.el("span", { class: "t", "aria-hidden": "true", text: "T" + row.n }),
        F.el("span", { class: "p", "aria-hidden": "true", text: value }),
      ]));
    });
  };

  Renderer.prototype.banner = function (banner) {
    var node = this.ui.banner;
    if (!banner) {
      window.clearTimeout(this.bannerTimer);
      window.clearTimeout(this.hideTimer);
      node.hidden = true;
      this.drawn.banner = null;
      return;
    }
    if (this.drawn.banner === banner.type + banner.key) return;
    this.drawn.banner = banner.type + banner.key;
    window.clearTimeout(this.bannerTimer);
    window.clearTimeout(this.hideTimer);
    node.className = "banner " + banner.type;
    node.textContent = "";
    node.appendChild(F.el("div", { class: "word", text: words(banner.word) }));
    if (banner.sub) node.appendChild(F.el("div", { class: "sub", text: words(banner.sub) }));
    node.hidden = false;
    node.dataset.event = banner.type;
    // Once it has landed, the banner settles into a corner of the felt: the kept tray it lay
    // over (what the turn kept, or lost) is in sight again while it stays (issue 40).
    this.bannerTimer = window.setTimeout(function () { node.classList.add("settled"); }, 900);
    if (!banner.persist) {
      this.hideTimer = window.setTimeout(function () { node.hidden = true; }, banner.type === "hot" ? 1800 : 1300);
    }
  };

  /* "1st", "2nd", "23rd"; French "1er", "2e": the page's language's ordinal of a rank. */
  function ordinal(n) {
    var lang = (document.documentElement.lang || "en").slice(0, 2);
    if (lang === "fr") return F.fmt(n) + (n === 1 ? "er" : "e");
    if (lang !== "en") return F.fmt(n);
    var suffix = { one: "st", two: "nd", few: "rd", other: "th" };
    return F.fmt(n) + suffix[new Intl.PluralRules("en", { type: "ordinal" }).select(n)];
  }

  /* Issue 40: where the player's accuracy stands, ties said as ties ("Tied for 1st"). */
  function standingLine(verdict) {
    var s = verdict.standing;
    if (!s) return verdict.practice ? _("Practice games are not ranked.") : "";
    var args = { rank: ordinal(s.rank), players: F.fmt(s.players) };
    if (s.tied) {
      return say(verdict.soFar ? _("By accuracy: tied for %(rank)s of %(players)s so far") : _("By accuracy: tied for %(rank)s of %(players)s"), args);
    }
    return say(verdict.soFar ? _("By accuracy: %(rank)s of %(players)s so far") : _("By accuracy: %(rank)s of %(players)s"), args);
  }

  function signed(value) {
    return (value >= 0 ? "+" : "−") + F.fmt(Math.abs(value));
  }

  Renderer.prototype.end = function (end) {
    var node = this.ui.end;
    if (!end) {
      node.hidden = true;
      this.drawn.end = null;
      this.drawn.board = null;
      this.drawn.analysis = null;
      return;
    }
    if (this.drawn.end !== end.key) {
      this.drawn.end = end.key;
      this.drawn.board = null;
      this.drawn.analysis = null;
      this.buildEnd(end);
    }
    this.lastEnd = end;
    this.verdict(end);
    var rank = node.querySelector('[data-role="rank"]');
    rank.textContent = words(end.rank);
    // The same leaderboard answer (the same buckets) is drawn once.
    if (end.histogram && this.drawn.board !== end.histogram.buckets) {
      this.drawn.board = end.histogram.buckets;
      var h = end.histogram;
      F.histogram(node.querySelector('[data-role="end-histogram"]'), h.buckets, {
        mine: h.mine,
        par: h.par,
        mineLabel: h.practice ? _("Your practice") : _("You"),
        caption: say(F.ngettext("%(players)s player · median %(median)s · best %(best)s", "%(players)s players · median %(median)s · best %(best)s", h.players), {
          players: F.fmt(h.players), median: F.fmt(h.median), best: F.fmt(h.best),
        }),
      });
    }
    // The squares follow the player's palette, which may change while the panel is shown.
    node.querySelector('[data-role="turn-strip"]').textContent = end.strip;
    var legend = end.legend;
    node.querySelector('[data-role="legend"]').textContent = say(
      _("%(farkle)s Farkle · %(low)s under 500 · %(mid)s 500 to 999 · %(high)s 1,000 or more · %(none)s nothing banked"), legend);
    var palette = node.querySelector('[data-role="palette-switch"]');
    palette.checked = !!window.FarklePalette && window.FarklePalette.current() === "colourblind";
    var status = node.querySelector('[data-role="share-status"]');
    var fallback = node.querySelector('[data-role="share-fallback"]');
    fallback.querySelector("textarea").value = shareText(end.share);
    fallback.hidden = end.share.status !== "fallback";
    status.textContent = end.share.status === "copied"
      ? _("Copied! Paste it anywhere.")
      : end.share.status === "fallback" ? _("The clipboard is not available here: copy the text below.") : "";
  };

  /* The verdict (issue 40): accuracy, the points the decisions lost, the standing; then the
   * score and the luck in one line. Filled again when the analysis arrives. */
  Renderer.prototype.verdict = function (end) {
    var node = this.ui.end;
    var v = end.verdict;
    var box = node.querySelector('[data-role="verdict"]');
    box.dataset.state = v.state;
    var accuracy = node.querySelector('[data-role="verdict-accuracy"]');
    var lost = node.querySelector('[data-role="verdict-lost"]');
    var standing = node.querySelector('[data-role="verdict-standing"]');
    var luck = node.querySelector('[data-role="luck"]');
    if (v.state !== "ready") {
      accuracy.textContent = "–";
      lost.textContent = v.state === "loading" ? _("Analysing your decisions…") : _("The analysis is not available right now.");
      standing.textContent = "";
      luck.textContent = "";
      return;
    }
    accuracy.textContent = F.pct(v.accuracy / 100, 1);
    lost.textContent = say(_("%(lost)s expected points lost to decisions"), { lost: F.fmt(v.lost) });
    standing.textContent = standingLine(v);
    luck.textContent = say(_("luck %(luck)s"), { luck: signed(v.luck) });
    var left = node.querySelector('[data-role="left-at-close"]');
    left.hidden = !v.left;
    if (v.left) {
      // Issue 40: a game the close ended is graded on what it left undone too, said plainly, so
      // that score = par - lost + luck still reads true.
      left.textContent = say(F.ngettext(
        "The close ended this game at turn %(turn)s: %(turns)s turn unplayed, worth %(lost)s expected points, counts as lost.",
        "The close ended this game at turn %(turn)s: %(turns)s turns unplayed, worth %(lost)s expected points, count as lost.",
        v.left.turns), { turn: v.left.turn, turns: v.left.turns, lost: F.fmt(Math.round(v.left.lost)) });
    }
    if (this.drawn.analysis !== end.key && window.FarkleAnalysis) {
      this.drawn.analysis = end.key;
      window.FarkleAnalysis.fill(node.querySelector('[data-role="end-analysis"]'), end.analysis);
    }
  };

  Renderer.prototype.buildEnd = function (end) {
    var node = this.ui.end;
    node.textContent = "";
    node.hidden = false;
    node.setAttribute("aria-labelledby", "end-title");
    node.appendChild(F.el("div", { class: "end-head" }, [
      F.el("h2", { id: "end-title", text: _("Game over") }),
      F.el("span", { class: "badge" + (end.official ? "" : " practice"), text: end.official ? _("Official") : _("Practice") }),
    ]));
    // Issue 40: how well the player decided comes first; the score, mostly the dice's, is context.
    node.appendChild(F.el("div", { class: "verdict", "data-role": "verdict", "aria-live": "polite" }, [
      F.el("p", { class: "verdict-main", "data-role": "accuracy" }, [
        F.el("span", { class: "verdict-label", text: _("Accuracy") }), " ",
        F.el("strong", { class: "verdict-figure", "data-role": "verdict-accuracy", text: "–" }),
      ]),
      F.el("p", { class: "verdict-lost", "data-role": "verdict-lost" }),
      F.el("p", { class: "verdict-standing", "data-role": "verdict-standing" }),
    ]));
    node.appendChild(F.el("p", { class: "end-context", "data-role": "context" }, [
      _("Score") + " ", F.el("strong", { "data-role": "final-score", text: F.fmt(end.score) }),
      end.par ? " · " + _("par") + " " + F.fmt(end.par.par) : "",
      " · ", F.el("span", { "data-role": "luck" }),
    ]));
    node.appendChild(F.el("p", { class: "notice", "data-role": "left-at-close", hidden: true }));
    if (end.closedEarly) {
      node.appendChild(F.el("p", { class: "notice", text: _("The day closed before this game ended: its banked points count.") }));
    }
    // Held by the foresight check: the score stands, the leaderboard waits for an operator.
    if (end.held) node.appendChild(F.el("p", { class: "notice", "data-role": "held", text: end.held }));
    node.appendChild(F.el("p", { class: "turn-strip", "data-role": "turn-strip", "aria-hidden": "true" }));

    var fallback = F.el("div", { class: "share-fallback", "data-role": "share-fallback", hidden: true }, [
      F.el("label", { for: "share-text", text: _("Copy this text to share it:") }),
      F.el("textarea", { id: "share-text", readonly: true, rows: "3", "data-role": "share-text" }),
    ]);
    var row = F.el("div", { class: "share-row" }, [
      F.el("button", { type: "button", class: "btn gold", "data-action": "share" }, ["📋 " + _("Share")]),
      F.el("a", { class: "btn", "data-role": "replay-link", href: "/attempts/" + end.key + "/replay", text: _("Replay: every decision graded") }),
    ]);
    node.appendChild(row);
    node.appendChild(F.el("label", { class: "palette-switch small" }, [
      F.el("input", { type: "checkbox", "data-role": "palette-switch" }),
      " " + _("Colour-blind-safe colours (squares and marks)"),
    ]));
    node.appendChild(F.el("span", { class: "small muted", "data-role": "share-status", role: "status" }));
    node.appendChild(fallback);
    var links = F.el("p", { class: "end-links" }, [F.el("a", { class: "btn", href: end.boardLink, text: _("Leaderboard") })]);
    if (end.again) links.appendChild(F.el("button", { type: "button", class: "btn", "data-action": "practice", text: words({ id: end.again }) }));
    if (end.verifyHref) links.appendChild(F.el("a", { class: "btn", "data-role": "verify-practice", href: end.verifyHref, text: _("Check these dice") }));
    node.appendChild(links);

    // The rest folds below the verdict (a phone's first screen holds the verdict and Share):
    // open from the start where there is room for it.
    var more = F.el("details", { class: "end-more", "data-role": "end-more" }, [
      F.el("summary", { text: _("More: par, rank, the bots, grades, your dailies") }),
    ]);
    more.open = !!window.matchMedia && window.matchMedia("(min-width: 720px)").matches;
    var self = this;
    // The histogram is drawn at its width, which a folded panel has not: again once unfolded.
    more.addEventListener("toggle", function () {
      if (more.open) self.drawn.board = null;
      if (more.open && self.lastEnd) self.end(self.lastEnd);
    });
    if (end.par) {
      var vs = end.par.diff >= 0
        ? say(_("%(diff)s above par (%(par)s)"), { diff: F.fmt(end.par.diff), par: F.fmt(end.par.par) })
        : say(_("%(diff)s below par (%(par)s)"), { diff: F.fmt(-end.par.diff), par: F.fmt(end.par.par) });
      more.appendChild(F.el("p", { class: "vs-par", text: vs }));
    }
    more.appendChild(F.el("p", { class: "rank", "data-role": "rank" }));
    more.appendChild(F.el("section", { class: "after-game", "data-role": "end-analysis" }));
    more.appendChild(F.el("figure", { class: "histogram", "data-role": "end-histogram", hidden: true }));
    more.appendChild(F.el("p", { class: "legend", "data-role": "legend" }));
    node.appendChild(more);
    // The results panel (static/js/results.js, on today's page only): streaks, my dailies, the
    // countdown, my groups, and the system share sheet in front of the clipboard.
    if (window.FarkleResults) {
      window.FarkleResults.render(more, {
        attempt: { official: end.official, score: end.score },
        kind: end.share.challenge ? "challenge" : "daily",
        // Read at the click: the accuracy and the palette may have changed since.
        text: function () { return fallback.querySelector("textarea").value; },
        shareButton: row.querySelector('[data-action="share"]'),
      });
    }
  };

  window.FarklePlay = window.FarklePlay || {};
  window.FarklePlay.Renderer = Renderer;
  window.FarklePlay.words = words;
  window.FarklePlay.shareText = shareText;
})();
