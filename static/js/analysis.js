/* The end screen's "after the game" block (issue 12): the optimal player's score on the same
 * dice, where the player finished among the three bots, accuracy and luck, and the link to the
 * replay. It reads /api/attempts/<id>/analysis; the end panel (play/view.js) only places it. */
(function () {
  "use strict";
  var F = window.Farkle;
  var _ = F.gettext;
  var say = function (format, args) { return F.interpolate(format, args, true); };

  function botName(level) {
    return { easy: _("Easy"), medium: _("Medium"), hard: _("Hard") }[level];
  }

  function joined(names) {
    if (names.length < 2) return names.join("");
    return say(_("%(first)s and %(last)s"), { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
  }

  /* "You beat Easy and Medium. Hard scored 6,450." */
  function versus(bots) {
    var beaten = bots.filter(function (b) { return b.beaten; }).map(function (b) { return botName(b.level); });
    var lines = [];
    if (beaten.length) lines.push(say(_("You beat %(names)s."), { names: joined(beaten) }));
    else lines.push(_("The bots all did at least as well this time."));
    bots.forEach(function (b) {
      if (!b.beaten) lines.push(say(_("%(bot)s scored %(score)s."), { bot: botName(b.level), score: F.fmt(b.score) }));
    });
    return lines.join(" ");
  }

  function signed(value) {
    var rounded = Math.round(value);
    return (rounded >= 0 ? "+" : "−") + F.fmt(Math.abs(rounded));
  }

  function fill(node, data) {
    var left = data.left_at_close;
    node.textContent = "";
    node.appendChild(F.el("h3", { class: "small muted eyebrow", text: _("After the game") }));
    if (data.optimal_score !== null) {
      node.appendChild(F.el("p", { "data-role": "optimal-score" }, [
        _("Optimal player on the same dice:") + " ",
        F.el("strong", { text: F.fmt(data.optimal_score) }),
        " · " + say(_("you: %(score)s"), { score: F.fmt(data.score) }),
      ]));
    }
    if (data.bots) node.appendChild(F.el("p", { "data-role": "bots", text: versus(data.bots) }));
    node.appendChild(F.el("p", { "data-role": "accuracy" }, [
      say(_("Accuracy %(accuracy)s"), { accuracy: F.pct(data.accuracy / 100, 1) }),
      " · ",
      F.el("span", { "data-role": "luck", text: say(_("luck %(luck)s"), { luck: signed(data.luck) }) }),
      " · " + say(_("%(lost)s expected points lost to decisions"), { lost: F.fmt(Math.round(data.lost - (left ? left.lost : 0))) }),
    ]));
    // Issue 40: a game the close ended is graded on what it left undone too, said plainly, so
    // that score = par - lost + luck still reads true.
    if (left) {
      node.appendChild(F.el("p", { class: "notice", "data-role": "left-at-close", text: say(F.ngettext(
        "The close ended this game at turn %(turn)s: %(turns)s turn unplayed, worth %(lost)s expected points, counts as lost.",
        "The close ended this game at turn %(turn)s: %(turns)s turns unplayed, worth %(lost)s expected points, count as lost.",
        left.turns), { turn: left.turn, turns: left.turns, lost: F.fmt(Math.round(left.lost)) }) }));
    }
    var g = data.grades;
    node.appendChild(F.el("p", { class: "small muted", "data-role": "grades", text: [
      say(F.ngettext("%(n)s inaccuracy", "%(n)s inaccuracies", g.inaccuracy), { n: g.inaccuracy }),
      say(F.ngettext("%(n)s mistake", "%(n)s mistakes", g.mistake), { n: g.mistake }),
      say(F.ngettext("%(n)s blunder", "%(n)s blunders", g.blunder), { n: g.blunder }),
    ].join(" · ") }));
    node.appendChild(F.el("p", {}, [
      F.el("a", { class: "btn", "data-role": "replay-link", href: "/attempts/" + data.id + "/replay", text: _("Replay: every decision graded") }),
    ]));
  }

  /* The block for a finished attempt: empty at first, filled when the analysis arrives. */
  function section(attemptId) {
    var node = F.el("section", { class: "after-game", "data-role": "end-analysis", "aria-live": "polite" }, [
      F.el("p", { class: "small muted", text: _("Analysing your decisions…") }),
    ]);
    F.api("/api/attempts/" + attemptId + "/analysis").then(function (data) {
      fill(node, data);
    }).catch(function (err) {
      node.textContent = "";
      node.appendChild(F.el("p", { class: "small muted", text: F.errorMessage(err) }));
    });
    return node;
  }

  window.FarkleAnalysis = { section: section, versus: versus };
})();
