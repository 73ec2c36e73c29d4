/* The end screen's "after the game" block (issue 12): the optimal player's score on the same
 * dice, where the player finished among the three bots, and the grades. The play controller reads
 * /api/attempts/<id>/analysis once (its accuracy leads the end screen, issue 40); the end panel
 * (play/view.js) places this block below the verdict. */
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

  /* The details below the verdict (issue 40: accuracy, points lost and luck lead the end screen,
   * static/js/play/view.js): the optimal player, the bots with what they are, the grades. */
  function fill(node, data) {
    node.textContent = "";
    if (!data) return;
    node.appendChild(F.el("h3", { class: "small muted eyebrow", text: _("After the game") }));
    if (data.optimal_score !== null) {
      node.appendChild(F.el("p", { "data-role": "optimal-score" }, [
        _("Optimal player on the same dice:") + " ",
        F.el("strong", { text: F.fmt(data.optimal_score) }),
        " · " + say(_("you: %(score)s"), { score: F.fmt(data.score) }),
      ]));
    }
    if (data.bots) {
      node.appendChild(F.el("p", { "data-role": "bots", text: versus(data.bots) }));
      // Issue 40: a Hard bot below Medium reads like a bug without this.
      node.appendChild(F.el("p", { class: "small muted", "data-role": "bots-explained",
        text: _("Hard plays the best choice on average, so on a given day it can score less than Medium.") }));
    }
    var g = data.grades;
    node.appendChild(F.el("p", { class: "small muted", "data-role": "grades", text: [
      say(F.ngettext("%(n)s inaccuracy", "%(n)s inaccuracies", g.inaccuracy), { n: g.inaccuracy }),
      say(F.ngettext("%(n)s mistake", "%(n)s mistakes", g.mistake), { n: g.mistake }),
      say(F.ngettext("%(n)s blunder", "%(n)s blunders", g.blunder), { n: g.blunder }),
    ].join(" · ") }));
  }

  window.FarkleAnalysis = { fill: fill, versus: versus };
})();
